import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { BAD_INPUT_CASES, CORPUS_KEY } from '../corpus/bad-input-cases.js'
import { contractViolations } from '../support/contract.js'
import { rawExchange, toFetchResponse } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

let cli: CliProcess
let keys: string

// Every case comes from its own loopback address, so cases without a valid key each get a fresh
// per-address bucket (Free limits, D16) and a 401 is never turned into a 429 by the ones before.
const addressOf = (index: number) => `127.0.${1 + Math.floor(index / 250)}.${2 + (index % 250)}`

async function storedPets(): Promise<string> {
  const response = await fetch(`${cli.url}/pets?limit=100`, { headers: { authorization: `Bearer ${CORPUS_KEY}` } })
  expect(response.status).toBe(200)
  return response.text()
}

beforeAll(async () => {
  keys = join(await mkdtemp(join(tmpdir(), 'petstore-corpus-')), 'keys.json')
  await writeFile(
    keys,
    JSON.stringify({ keys: [{ key: CORPUS_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 100_000_000 }] }),
  )
  cli = await startCli(['--log', 'off', '--pets', '5', '--keys', keys])
})
// Each case fails alone: one that stops the sandbox gets a fresh one for the next, and each compares
// the pets with those before it, so a case that stored a pet does not fail every case after it.
beforeEach(async () => {
  if (cli.child.exitCode !== null || cli.child.signalCode !== null)
    cli = await startCli(['--log', 'off', '--pets', '5', '--keys', keys])
})
afterAll(async () => {
  await cli.stop()
})

it('holds at least 100 cases with distinct names', () => {
  expect(BAD_INPUT_CASES.length).toBeGreaterThanOrEqual(100)
  expect(new Set(BAD_INPUT_CASES.map((entry) => entry.name)).size).toBe(BAD_INPUT_CASES.length)
})

it.each(BAD_INPUT_CASES.map((entry, index) => ({ ...entry, index })))(
  'answers $name with $status and an Error body, and changes nothing',
  async ({ method, target, bytes, status, beforeRouting, index }) => {
    const stored = await storedPets()
    const answer = await rawExchange(cli.url, bytes, { localAddress: addressOf(index) })
    expect(answer, 'an HTTP answer before the connection closed').toBeDefined()
    expect(answer!.status).toBe(status)
    const origin = new URL(cli.url).origin
    const url = !beforeRouting && URL.canParse(target, origin) ? new URL(target, origin).href : `${origin}/`
    expect(await contractViolations(method, url, toFetchResponse(answer!))).toEqual([])
    expect(await storedPets()).toBe(stored)
  },
)

it('creates a pet from the body the cases spoil, so each case is refused for its own defect', async () => {
  const stored = await storedPets()
  const valid = '{"name":"Rex","categoryId":1}'
  const answer = await rawExchange(
    cli.url,
    Buffer.from(
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${CORPUS_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${valid.length}\r\nConnection: close\r\n\r\n${valid}`,
    ),
  )
  expect(answer?.status).toBe(201)
  expect(await storedPets()).not.toBe(stored)
})
