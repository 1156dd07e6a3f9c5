import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { latencyMs } from '../../src/core/faults/create-fault-injector.js'
import { createRandom } from '../../src/core/faults/create-random.js'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'

// `petstore-sandbox weather <file.har>` fits a faults document to a recording, and `--faults-file`
// starts a sandbox with it (docs/decisions.md#d45).
const scratch = mkdtempSync(join(tmpdir(), 'petstore-weather-'))
const TOKEN = 'admin-token-for-weather'
const started: CliProcess[] = []
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()))
})

/** A recording of `count` listings whose times come from a log-normal through p50 and p99, failing in runs of `run`. */
function recording(count: number, latency: { p50: number; p99: number }, run: number, every: number) {
  const random = createRandom(11)
  const entries = Array.from({ length: count }, (_, index) => ({
    startedDateTime: new Date(Date.UTC(2030, 0, 1) + index * 1000).toISOString(),
    time: latencyMs(latency, random()),
    request: { method: 'GET', url: 'https://staging.example/v1/pets?limit=5', headers: [] },
    // A run of `run` failures every `every` answers.
    response: {
      status: index % every < run ? 503 : index % 7 === 0 ? 404 : 200,
      headers: [],
      content: { size: 0, mimeType: 'application/json' },
    },
  }))
  const getPet = {
    ...entries[0]!,
    time: 12,
    request: { method: 'GET', url: 'https://staging.example/v1/pets/3', headers: [] },
    response: { ...entries[0]!.response, status: 200 },
  }
  return { log: { version: '1.2', creator: { name: 'test', version: '1' }, pages: [], entries: [...entries, getPet] } }
}

it("recovers a recording's percentiles, error rate and burst per operation, and a sandbox starts with them", async () => {
  const file = join(scratch, 'staging.har')
  writeFileSync(file, JSON.stringify(recording(4000, { p50: 80, p99: 900 }, 4, 20)))
  const { code, stdout, stderr } = await runCli(['weather', file])
  expect(stderr).toBe('')
  expect(code).toBe(0)
  const weather = JSON.parse(stdout) as {
    operations: Record<string, { latency: { p50: number; p99: number }; errorRate: number; burst?: number }>
  }
  const listPets = weather.operations.listPets!
  expect(listPets.latency.p50).toBeGreaterThan(72)
  expect(listPets.latency.p50).toBeLessThan(88)
  expect(listPets.latency.p99).toBeGreaterThan(700)
  expect(listPets.latency.p99).toBeLessThan(1150)
  // 4 of every 20 answers failed, in runs of 4; the 404s are the client's.
  expect(listPets.errorRate).toBeCloseTo(0.2, 2)
  expect(listPets.burst).toBe(4)
  expect(weather.operations.getPet).toEqual({ latency: { p50: 12, p99: 12 }, errorRate: 0 })

  const faultsFile = join(scratch, 'weather.json')
  writeFileSync(faultsFile, stdout)
  const cli = await startCli(['--admin-token', TOKEN, '--faults-file', faultsFile, '--fault', 'getPet:error-rate=0.5'])
  started.push(cli)
  const admin = createAdminCaller(() => cli.url.replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())
  const inForce = (await (await admin('/faults')).json()) as { operations: Record<string, unknown> }
  expect(inForce.operations.listPets).toEqual(listPets)
  // A flag overrides the file's entry of its operation.
  expect(inForce.operations.getPet).toEqual({ errorRate: 0.5 })
})

it('refuses a faults file the admin document refuses, and a recording with no operation, in one line', async () => {
  const bad = join(scratch, 'bad.json')
  writeFileSync(bad, JSON.stringify({ latency: { p50: 900, p99: 80 } }))
  const refused = await runCli(['start', '--port', '0', '--faults-file', bad])
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(`faults file ${bad}.latency: p50 must not be above p99`)
  const empty = join(scratch, 'empty.har')
  writeFileSync(empty, JSON.stringify({ log: { entries: [] } }))
  const none = await runCli(['weather', empty])
  expect(none.code).toBe(1)
  expect(none.stderr).toContain(`har file ${empty}: har has no entry of the API's operations to fit weather to`)
})
