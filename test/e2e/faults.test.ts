import { expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'

const contract = createContractChecker()
const FAULTS = [
  '--latency',
  '1-3',
  '--error-rate',
  '0.5',
  '--error-kinds',
  '500,503,drop',
  '--fault-seed',
  '7',
  '--fault',
  'getPet:error-rate=0',
]

/** `count` listPets calls one after another: status and fault mark, or `drop` for a closed socket. */
async function outcomes(cli: CliProcess, path: string, count: number): Promise<string[]> {
  const seen: string[] = []
  for (let i = 0; i < count; i++) {
    const url = `${cli.url}${path}`
    let response: Response
    try {
      response = await fetch(url, { headers: { authorization: 'Bearer sandbox-enterprise-key' } })
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError)
      seen.push('drop')
      continue
    }
    contract.check('GET', url, response)
    await response.arrayBuffer()
    seen.push(
      `${response.status} ${response.headers.get('x-sandbox-fault')?.replace(/latency=\d+ms/, 'latency') ?? '-'}`,
    )
  }
  return seen
}

it('injects the same faults over HTTP in two processes started with the same seed, sparing getPet', async () => {
  const [a, b] = await Promise.all([startCli(['--log', 'off', ...FAULTS]), startCli(['--log', 'off', ...FAULTS])])
  try {
    const [first, second] = await Promise.all([outcomes(a, '/pets?limit=1', 24), outcomes(b, '/pets?limit=1', 24)])
    expect(second).toEqual(first)
    expect(first).toContain('drop')
    expect(first.some((outcome) => /^50[03] latency, error=50[03]$/.test(outcome))).toBe(true)
    expect(first).toContain('200 latency')
    expect(new Set(await outcomes(a, '/pets/1', 6))).toEqual(new Set(['200 latency']))
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
})

it('rejects bad fault options with a one-line reason', async () => {
  for (const args of [
    ['--error-rate', '1.5'],
    ['--latency', '9-1'],
    ['--error-kinds', '500,418'],
    ['--fault', 'createPet'],
    ['--fault', 'deletePet:error-rate=1'],
  ]) {
    const result = await runCli(['start', '--port', '0', ...args])
    expect(result.code, args.join(' ')).toBe(1)
    expect(result.stderr.split('\n')[0]).toMatch(/^error: /)
  }
})
