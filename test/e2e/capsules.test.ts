import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { type Capsule, ConfigError, createSandbox } from '../../src/index.js'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { contractViolations } from '../support/contract.js'
import { runCli, startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Capsules (D34): a session's world carried between the three modes, compared answer by answer.
const TOKEN = 'admin-token-for-capsules'
const { call, url } = useCliSandbox(['--admin-token', TOKEN, '--pets', '10'])
const adminContract = createAdminContractChecker()
const inProcessContract = createContractChecker()
const origin = () => url().replace(/\/v1$/, '')
const scratch = mkdtempSync(join(tmpdir(), 'petstore-capsules-'))

const admin = createAdminCaller(origin, TOKEN, adminContract)

/** One step of the sequence compared across modes: a path below /v1, the key, and a body to create. */
const SEQUENCE: Array<{ path: string; key: string; create?: string }> = [
  { path: '/pets?limit=20', key: 'sandbox-free-key' },
  { path: '/pets/11', key: 'sandbox-free-key' },
  { path: '/pets', key: 'sandbox-free-key', create: 'After the capsule' },
  { path: '/pets/13', key: 'sandbox-free-key' },
  { path: '/pets/1', key: 'sandbox-business-key' },
  { path: '/pets?status=sold&limit=5', key: 'sandbox-pro-key' },
  ...Array.from({ length: 5 }, () => ({ path: '/pets?limit=1', key: 'sandbox-free-key' })),
]

/** The answers to SEQUENCE through `send`: status, body and the headers a restored world must repeat. */
async function answers(send: (path: string, init: RequestInit) => Promise<Response>): Promise<string[]> {
  const seen: string[] = []
  for (const step of SEQUENCE) {
    const headers: Record<string, string> = { authorization: `Bearer ${step.key}` }
    if (step.create !== undefined) headers['content-type'] = 'application/json'
    const init: RequestInit =
      step.create === undefined
        ? { headers }
        : { method: 'POST', headers, body: JSON.stringify({ name: step.create, categoryId: 4 }) }
    const response = await send(step.path, init)
    const shown = [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-sandbox-scenario',
      'x-sandbox-fault',
    ].map((name) => `${name}=${response.headers.get(name)}`)
    // Retry-After counts the seconds left from the moment of the answer, which no two runs share;
    // the window's end (X-RateLimit-Reset) is the world's and compared as it is.
    const retry = response.headers.has('retry-after') ? 'retry-after' : 'no retry-after'
    const body = (await response.text()).replace(/retry in \d+ s/, 'retry in N s')
    seen.push(`${step.path} ${response.status} ${shown.join(' ')} ${retry} ${body}`)
  }
  return seen
}

const inSession = (session: string) => (path: string, init: RequestInit) =>
  call(path, {
    ...init,
    key: null,
    headers: { ...(init.headers as Record<string, string>), 'x-sandbox-session': session },
  })

/**
 * Session `qa` arranged by hand, as a QA engineer would: pets made, the clock moved, a key near its
 * quota, a scenario, faults. The clock starts a minute, so that every world compared answers in
 * that same minute's window whatever the machine's pace.
 */
async function arrangeQa(): Promise<Capsule> {
  expect(
    (await admin('/clock', { method: 'POST', session: 'qa', json: { set: '2030-06-01T10:00:00.500Z' } })).status,
  ).toBe(200)
  for (const name of ['Made by QA', 'Also by QA']) {
    const created = await call('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'qa' },
      body: JSON.stringify({ name, categoryId: 2 }),
    })
    expect(created.status).toBe(201)
  }
  expect(
    (await admin('/keys/sandbox-free-key', { method: 'PATCH', session: 'qa', json: { remaining: 7 } })).status,
  ).toBe(200)
  expect(
    (await admin('/keys/sandbox-business-key/scenario', { method: 'PUT', session: 'qa', json: { name: 'sunset' } }))
      .status,
  ).toBe(200)
  expect((await admin('/faults', { method: 'PUT', session: 'qa', json: { latency: 1 } })).status).toBe(200)
  const response = await admin('/sessions/qa/capsule')
  expect(response.status).toBe(200)
  return (await response.json()) as Capsule
}

it('carries a session between HTTP, start --from and createSandbox({ from }) and back, answer by answer', async () => {
  const capsule = await arrangeQa()
  expect(capsule).toMatchObject({
    kind: 'petstore-sandbox/capsule',
    version: 1,
    session: 'qa',
    nextId: 13,
    scenarios: { 'sandbox-business-key': 'sunset' },
  })
  expect(capsule.quotas['sandbox-free-key']).toMatchObject({ minuteUsed: 53, refused: 0 })
  expect(capsule.keys.map((key) => key.key).sort()).toEqual([
    'sandbox-business-key',
    'sandbox-enterprise-key',
    'sandbox-free-key',
  ])
  expect(capsule.har?.log.entries.length).toBe(2)

  // HTTP → HTTP: restored into another session of the same sandbox.
  const restored = await admin('/sessions/copy', { method: 'PUT', json: { capsule } })
  expect(restored.status).toBe(200)
  expect(await restored.json()).toMatchObject({ name: 'copy', origin: 'capsule', pets: { count: 12, nextId: 13 } })
  const original = await answers(inSession('qa'))
  expect(original.some((answer) => answer.startsWith('/pets/1 410'))).toBe(true)
  expect(original.at(-1)).toContain(' 429 ')
  expect(await answers(inSession('copy'))).toEqual(original)

  // HTTP → start --from: the default session of another CLI starts from it.
  const file = join(scratch, 'qa.capsule.json')
  writeFileSync(file, JSON.stringify(capsule))
  const other = await startCli(['--from', file, '--log', 'off'])
  try {
    expect(other.output()).toContain(`12 from ${file}`)
    expect(await answers((path, init) => fetch(`${other.url}${path}`, init))).toEqual(original)
  } finally {
    await other.stop()
  }

  // HTTP → createSandbox({ from }), in-process, and back to HTTP from a capsule made there.
  const inProcess = createSandbox({ from: capsule })
  const back = await inProcess.capsule()
  const viaFetch = async (path: string, init: RequestInit) => {
    const response = await inProcess.fetch(`http://api.test/v1${path}`, init)
    inProcessContract.check(init.method ?? 'GET', `http://api.test/v1${path}`, response)
    return response
  }
  expect(await answers(viaFetch)).toEqual(original)
  expect((await admin('/sessions/back', { method: 'PUT', json: { capsule: back } })).status).toBe(200)
  expect(await answers(inSession('back'))).toEqual(original)

  // A restored session's reset returns to the capsule.
  expect((await admin('/reset', { method: 'POST', session: 'copy' })).status).toBe(200)
  expect(await (await admin('/state', { session: 'copy' })).json()).toMatchObject({ pets: { count: 12, nextId: 13 } })
}, 60_000)

it('refuses a capsule it cannot read in one clear error naming the field, and makes nothing of it', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const refusals: Array<[unknown, string]> = [
    [{ ...capsule, version: 2 }, 'capsule.version 2 is newer than this sandbox reads (1): upgrade petstore-sandbox'],
    [{ ...capsule, pets: [{ ...capsule.pets[0], categoryId: 0 }] }, 'capsule.pets[0].categoryId must be at least 1'],
    [{ ...capsule, nextId: 1 }, 'capsule.nextId must be above 10, the highest pet id'],
    [{ ...capsule, kind: 'something-else' }, 'capsule.kind'],
    [
      {
        ...capsule,
        quotas: { 'team-key-not-here': { minuteUsed: 1, dayUsed: 1, refused: 0 } },
        keys: [{ key: 'team-key-not-here', plan: 'pro' }],
      },
      'capsule.keys[0] (team…',
    ],
  ]
  for (const [given, message] of refusals) {
    const response = await admin('/sessions/broken', { method: 'PUT', json: { capsule: given } })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toContain(message)
    expect((await admin('/sessions/broken')).status).toBe(404)
  }
  expect(() => createSandbox({ from: { ...capsule, version: 2 } as unknown as Capsule })).toThrow(ConfigError)
  expect(() => createSandbox({ from: capsule, pets: 3 })).toThrow('from and pets cannot be combined')

  const file = join(scratch, 'newer.capsule.json')
  writeFileSync(file, JSON.stringify({ ...capsule, version: 2 }))
  const started = await runCli(['start', '--port', '0', '--from', file])
  expect(started.code).not.toBe(0)
  expect(started.stderr.trim()).toBe(
    `error: capsule file ${file}: capsule.version 2 is newer than this sandbox reads (1): upgrade petstore-sandbox`,
  )
  const both = await runCli(['start', '--port', '0', '--from', file, '--pets-file', file])
  expect(both.stderr).toContain('--from and --pets-file cannot be combined')
})

it('refuses a capsule with an instant that is no RFC 3339 date-time, or past the clock’s span, naming the field', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  for (const [given, field] of [
    [{ ...capsule, made: 'not a date' }, 'made'],
    [{ ...capsule, clock: '2030' }, 'clock'],
    [{ ...capsule, clock: '1969-12-31T23:59:59Z' }, 'clock'],
  ] as const) {
    const response = await admin('/sessions/broken', { method: 'PUT', json: { capsule: given } })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toBe(
      `capsule.${field} must be an RFC 3339 date-time between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, such as 2030-01-01T00:00:00Z`,
    )
  }
  expect((await admin('/sessions/broken')).status).toBe(404)
  // The span's last instant is taken, and the clock running on from it stays there (D28).
  const last = await admin('/sessions/at-the-end', {
    method: 'PUT',
    json: { capsule: { ...capsule, clock: '9999-12-31T23:59:59.999Z' } },
  })
  expect(last.status).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(await (await admin('/clock', { session: 'at-the-end' })).json()).toEqual({ now: '9999-12-31T23:59:59.999Z' })
  expect((await admin('/sessions/at-the-end', { method: 'DELETE' })).status).toBe(200)
})

it('tells 20000 bad pets of a capsule in a bounded message: the first 20 faults and a count of the rest', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const pets = Array.from({ length: 20_000 }, (_, index) => ({
    id: index + 1,
    name: 'Bad',
    categoryId: 0,
    status: 'lost',
  }))
  const response = await admin('/sessions/broken', {
    method: 'PUT',
    json: { capsule: { ...capsule, pets, nextId: 20_001, har: undefined } },
  })
  expect(response.status).toBe(400)
  const { message } = (await response.json()) as { message: string }
  // Every fault named, it was 2.3 MB.
  expect(message.length).toBeLessThan(2_000)
  expect(message).toMatch(
    /^capsule\.pets\[0\]\.categoryId must be at least 1; capsule\.pets\[0\]\.status must be one of available, pending, sold; /,
  )
  expect(message).toMatch(/; and 39980 more$/)
  expect((await admin('/sessions/broken')).status).toBe(404)
}, 60_000)

it('refuses a capsule nesting 10000 levels deep where its schema leaves a field open: a 400 over HTTP, one line from start --from', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
  const text = JSON.stringify({ ...capsule, har: { ...capsule.har, log: { ...capsule.har!.log, _extra: 0 } } }).replace(
    '"_extra":0',
    `"_extra":${deep}`,
  )
  const response = await admin('/sessions/deep', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: `{"capsule":${text}}`,
  })
  expect(response.status).toBe(400)
  expect((await response.json()).message).toMatch(/^capsule\.har\.log\._extra(\[0\])+ nests deeper than 64 levels$/)
  expect((await admin('/sessions/deep')).status).toBe(404)
  const file = join(scratch, 'deep.capsule.json')
  writeFileSync(file, text)
  const started = await runCli(['start', '--port', '0', '--from', file])
  expect(started.code).toBe(1)
  expect(started.stderr.trim()).toMatch(
    new RegExp(`^error: capsule file ${file}: capsule\\.har\\.log\\._extra(\\[0\\])+ nests deeper than 64 levels$`),
  )
}, 60_000)

it('names a --from capsule as such when a --state file extends other pets', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const file = join(scratch, 'for-state.capsule.json')
  writeFileSync(file, JSON.stringify(capsule))
  const state = join(scratch, 'generated.state')
  const first = await startCli(['--pets', '3', '--state', state])
  await first.stop()
  const refused = await runCli(['start', '--port', '0', '--from', file, '--state', state])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim()).toBe(
    `error: state file ${state} extends pets seeded with --seed 1 --pets 3, not those of a --from capsule; start with those, or use another --state file`,
  )
}, 60_000)

it('masks a capsule’s keys in the banner of start --from, and refuses a key as a session name, so no drop line can show it', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const teamKey = 'team-secret-key-4f2a9c'
  const file = join(scratch, 'team.capsule.json')
  writeFileSync(
    file,
    JSON.stringify({
      ...capsule,
      keys: [{ key: teamKey, plan: 'pro' }],
      quotas: { [teamKey]: { minuteUsed: 1, dayUsed: 1, refused: 0 } },
    }),
  )
  const cli = await startCli(['--from', file, '--max-sessions', '1'])
  try {
    expect(cli.output()).toContain('sandbox-free-key')
    expect(cli.output()).toMatch(/ pro +team…#[0-9a-f]{4} /)
    const inSession = async (session: string) => {
      const listed = await fetch(`${cli.url}/pets?limit=1`, {
        headers: { authorization: `Bearer ${teamKey}`, 'x-sandbox-session': session },
      })
      expect(await contractViolations('GET', listed.url, listed.clone())).toEqual([])
      return listed
    }
    // The capsule's key names no session (D35): refused, the name not echoed.
    const refused = await inSession(teamKey)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      message: 'X-Sandbox-Session must not be an API key or the admin token',
    })
    for (const session of ['another', 'third']) expect((await inSession(session)).status).toBe(200)
    // The first session is dropped by the next (--max-sessions 1), which a line says.
    while (!/Session \S+ dropped/.test(cli.output())) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(cli.output()).toMatch(/Session another dropped: least recently used/)
    expect(cli.output()).not.toContain(teamKey)
  } finally {
    await cli.stop()
  }
}, 60_000)

it('takes a capsule over D9’s 1 MiB, up to 16 MiB, and refuses a larger body with 413', async () => {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as Capsule
  const pets = Array.from({ length: 30_000 }, (_, index) => ({
    id: index + 1,
    name: `Pet number ${index + 1} of a large capsule`,
    categoryId: 1,
  }))
  const large = { ...capsule, pets, nextId: 30_001, har: undefined }
  expect(JSON.stringify({ capsule: large }).length).toBeGreaterThan(1024 * 1024)
  const restored = await admin('/sessions/large', { method: 'PUT', json: { capsule: large } })
  expect(restored.status).toBe(200)
  expect(await restored.json()).toMatchObject({ pets: { count: 30_000, nextId: 30_001 } })
  const tooLarge = await admin('/sessions/too-large', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: `{"capsule":{"pad":"${'x'.repeat(16 * 1024 * 1024)}"}}`,
  })
  expect(tooLarge.status).toBe(413)
  expect((await tooLarge.json()).code).toBe('payload_too_large')
  expect((await admin('/sessions/large', { method: 'DELETE' })).status).toBe(200)
})
