import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { pagesContractViolations } from '../support/pages-contract.js'
import { type CliProcess, startCli } from '../support/start-cli.js'

// What is in force, said wherever a person looks: the start banner (with the variables each came
// from), the front door, GET /__sandbox/state, and the request log's mark of a forced answer.
const TOKEN = 'in-force-admin-token'
const contract = createContractChecker()
const adminContract = createAdminContractChecker()
let cli: CliProcess
let origin: string

beforeAll(async () => {
  cli = await startCli(
    [
      '--log',
      'off',
      '--pets',
      '4',
      '--seed',
      '9',
      '--admin-token',
      TOKEN,
      '--prefer',
      '--now',
      '2030-01-01T00:00:00Z',
      '--scenario',
      'sandbox-pro-key=empty',
    ],
    { PETSTORE_SANDBOX_LATENCY: '5', PETSTORE_SANDBOX_ERROR_KINDS: '503' },
  )
  origin = cli.url.replace(/\/v1$/, '')
})
afterAll(() => cli?.stop())

async function admin(path: string): Promise<Response> {
  const response = await fetch(`${origin}/__sandbox${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })
  adminContract.check('GET', response.url, response)
  return response
}

/** The banner's "In force" block, as printed. */
function bannerInForce(output: string): string[] {
  const lines = output.split('\n')
  const start = lines.indexOf('In force:')
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('  '))
  return lines.slice(start + 1, end)
}

it('says in the start banner what is in force, and which environment variables set it', () => {
  const lines = bannerInForce(cli.output())
  expect(lines[0]).toBe('  pets: 4 generated (seed 9)')
  expect(lines[1]).toMatch(/^ {2}clock: 2030-01-01T00:00:0\d\.\d{3}Z, \d+ d \d+ h ahead of real time$/)
  expect(lines.slice(2)).toEqual([
    '  scenarios: sandbox-pro-key empty',
    "  Prefer: honoured: a request's Prefer: code=<status> picks its status (D30)",
    '  faults: latency 5 ms (from PETSTORE_SANDBOX_LATENCY, PETSTORE_SANDBOX_ERROR_KINDS)',
    `  admin API: on at ${origin}/__sandbox/ (Authorization: Bearer <admin token>)`,
  ])
})

it('says the same on the front door, as a page and as JSON', async () => {
  const json = await fetch(`${origin}/`, { headers: { accept: 'application/json' } })
  expect(await pagesContractViolations('GET', json.url, json.clone())).toEqual([])
  const door = (await json.json()) as { inForce: Array<{ item: string; label: string; text: string }> }
  const banner = bannerInForce(cli.output()).map((line) => line.replace(/ \(from [A-Z_, ]+\)$/, ''))
  // The clock runs on between the banner and the page: its line is compared without the instant.
  const withoutInstant = (line: string) => line.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z, \d+ d \d+ h/, '…')
  expect(door.inForce.map((line) => withoutInstant(`  ${line.label}: ${line.text}`))).toEqual(
    banner.map(withoutInstant),
  )
  expect(door.inForce.map((line) => line.item)).toEqual(['pets', 'clock', 'scenarios', 'prefer', 'faults', 'admin'])
  const page = await fetch(`${origin}/`)
  expect(await pagesContractViolations('GET', page.url, page.clone())).toEqual([])
  const html = await page.text()
  expect(html).toContain('<h2 id="in-force">In force</h2>')
  expect(html).toContain('<dt>scenarios</dt><dd data-item="scenarios">sandbox-pro-key empty</dd>')
})

it('holds the same facts in GET /__sandbox/state', async () => {
  const state = (await (await admin('/state')).json()) as {
    prefer: boolean
    clockOffsetMs: number
    seeded: { source: string; seed: number; pets: number }
    keys: Array<{ key: string; scenario?: string }>
    faults: { latency: { min: number; max: number }; kinds: string[] }
  }
  expect(state.prefer).toBe(true)
  expect(state.clockOffsetMs).toBeGreaterThan(0)
  expect(state.seeded).toEqual({ seed: 9, pets: 4, source: 'generated' })
  expect(state.keys.filter((key) => key.scenario !== undefined).map((key) => [key.key, key.scenario])).toEqual([
    ['sandbox-pro-key', 'empty'],
  ])
  expect(state.faults.latency).toEqual({ min: 5, max: 5 })
  expect(state.faults.kinds).toEqual(['503'])
})

it('marks an answer a Prefer: code= forced in the request log and its HAR, as a scenario-shaped one is', async () => {
  const url = `${cli.url}/pets`
  const forced = await fetch(url, { headers: { authorization: 'Bearer sandbox-free-key', prefer: 'code=503' } })
  contract.check('GET', url, forced)
  expect(forced.status).toBe(503)
  const shaped = await fetch(url, { headers: { authorization: 'Bearer sandbox-pro-key' } })
  contract.check('GET', url, shaped)
  const { requests } = (await (await admin('/requests?limit=2')).json()) as {
    requests: Array<{ forced?: number; scenario?: string }>
  }
  expect(requests.map(({ forced, scenario }) => ({ forced, scenario }))).toEqual([
    { forced: 503, scenario: undefined },
    { forced: undefined, scenario: 'empty' },
  ])
  const har = (await (await admin('/requests.har')).json()) as {
    log: { entries: Array<{ _forced?: number; _scenario?: string }> }
  }
  expect(har.log.entries.slice(-2).map((entry) => [entry._forced, entry._scenario])).toEqual([
    [503, undefined],
    [undefined, 'empty'],
  ])
})

it('notes once in the log, with the flag to use, a Prefer header sent to a sandbox started without --prefer', async () => {
  const plain = await startCli(['--log', 'pretty', '--pets', '1'])
  try {
    for (const status of [503, 500]) {
      const response = await fetch(`${plain.url}/pets`, {
        headers: { authorization: 'Bearer sandbox-free-key', prefer: `code=${status}` },
      })
      contract.check('GET', response.url, response)
      expect(response.status).toBe(200)
    }
    const banner = bannerInForce(plain.output())
    expect(banner).toContain('  Prefer: ignored (--prefer honours Prefer: code=<status>)')
    expect(banner).toContain('  admin API: off (--admin-token <token> turns it on)')
  } finally {
    await plain.stop()
  }
  const notes = plain.output().match(/^note .*$/gm) ?? []
  expect(notes).toEqual([
    'note GET /v1/pets sent Prefer: code=503, which this sandbox ignores: start it with --prefer to honour Prefer: code=<status>',
  ])
})

it("names the variable a scenario came from, as one left in a teammate's shell would be", async () => {
  const stale = await startCli(['--log', 'off', '--pets', '1'], {
    PETSTORE_SANDBOX_SCENARIO: 'sandbox-free-key=down',
    PETSTORE_SANDBOX_PREFER: '1',
  })
  try {
    const response = await fetch(`${stale.url}/pets`, { headers: { authorization: 'Bearer sandbox-free-key' } })
    contract.check('GET', response.url, response)
    expect(response.status).toBe(503)
    const banner = bannerInForce(stale.output())
    expect(banner).toContain('  scenarios: sandbox-free-key down (from PETSTORE_SANDBOX_SCENARIO)')
    expect(banner).toContain(
      "  Prefer: honoured: a request's Prefer: code=<status> picks its status (D30) (from PETSTORE_SANDBOX_PREFER)",
    )
  } finally {
    await stale.stop()
  }
})
