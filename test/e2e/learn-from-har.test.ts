import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { type Capsule, createSandbox, type Har, type Pet } from '../../src/index.js'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// A world learned from a recording (D41): a HAR of one sandbox's session, loaded into another.
const TOKEN = 'admin-token-for-learning'
const recorder = useCliSandbox(['--admin-token', TOKEN, '--pets', '12', '--seed', '3'])
const learner = useCliSandbox(['--admin-token', TOKEN, '--pets', '5', '--seed', '99'])
const adminContract = createAdminContractChecker()
const inProcessContract = createContractChecker()
const originOf = (url: string) => url.replace(/\/v1$/, '')
const recorderAdmin = createAdminCaller(() => originOf(recorder.url()), TOKEN, adminContract)
const learnerAdmin = createAdminCaller(() => originOf(learner.url()), TOKEN, adminContract)
const scratch = mkdtempSync(join(tmpdir(), 'petstore-learn-'))

interface Recording {
  har: Har
  /** Every pet the recorded answers showed, by id, with the fields last shown. */
  shown: Map<number, Pet>
  created: Pet[]
  /** The session's clock when recording ended. */
  clock: string
}

/** Session `rec` of the recorder, used as a frontend would: listings, creates, gets. */
async function record(): Promise<Recording> {
  const session = { 'x-sandbox-session': 'rec' }
  expect((await recorderAdmin('/sessions/rec', { method: 'PUT', json: {} })).status).toBe(200)
  expect(
    (await recorderAdmin('/clock', { method: 'POST', session: 'rec', json: { set: '2030-03-04T05:06:07.000Z' } }))
      .status,
  ).toBe(200)
  const shown = new Map<number, Pet>()
  const see = (pets: Pet[]) => {
    for (const pet of pets) shown.set(pet.id, pet)
  }
  see(await (await recorder.call('/pets?limit=4', { headers: session })).json())
  see(await (await recorder.call('/pets?status=sold&limit=100', { headers: session })).json())
  const created: Pet[] = []
  for (const name of ['Recorded Rex', 'Recorded Mia']) {
    const response = await recorder.call('/pets', {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 7, status: 'pending' }),
    })
    expect(response.status).toBe(201)
    created.push(await response.json())
  }
  see(created)
  see([await (await recorder.call('/pets/9', { headers: session })).json()])
  // Answers that show no pet are recorded too, and learned from as nothing.
  expect((await recorder.call('/pets/999', { headers: session })).status).toBe(404)
  expect((await recorder.call('/pets?limit=0', { headers: session })).status).toBe(400)
  const exported = await recorderAdmin('/requests.har?session=rec')
  expect(exported.status).toBe(200)
  const har = (await exported.json()) as Har
  expect(har.log.entries.length).toBe(7)
  const state = await (await recorderAdmin('/state', { session: 'rec' })).json()
  return { har, shown, created, clock: state.now }
}

/** What a world answers, through `send` (a path below /v1): the learned pets by id and name, a create, a get of a recorded create. */
async function checkLearned(
  send: (path: string, init?: RequestInit) => Promise<Response>,
  recording: Recording,
): Promise<void> {
  const listing = (await (await send('/pets?limit=100')).json()) as Pet[]
  const expected = [...recording.shown.values()].sort((a, b) => a.id - b.id)
  expect(listing).toEqual(expected)
  expect(listing.map((pet) => pet.name)).toContain('Recorded Mia')
  const largest = expected.at(-1)!.id
  const created = await send('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'After', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  expect((await created.json()).id).toBe(largest + 1)
  const got = await send(`/pets/${recording.created[0]!.id}`)
  expect(got.status).toBe(200)
  expect(await got.json()).toEqual(recording.created[0])
  // A pet the recording never showed is absent, not invented.
  const unseen = [...Array(largest).keys()].map((index) => index + 1).find((id) => !recording.shown.has(id))!
  expect((await send(`/pets/${unseen}`)).status).toBe(404)
  // Its second page: the listing is the world's, not a replayed answer.
  expect(((await (await send('/pets?limit=2')).json()) as Pet[]).map((pet) => pet.id)).toEqual(
    expected.slice(0, 2).map((pet) => pet.id),
  )
}

it('learns a world from a HAR of another sandbox: PUT { har }, start --from file.har, createSandbox({ from }), learn', async () => {
  const recording = await record()
  expect(recording.created[0]!.id).toBe(13)

  // PUT /__sandbox/sessions/{name} { har }, into a sandbox of other pets and another seed.
  const put = await learnerAdmin('/sessions/learned', { method: 'PUT', json: { har: recording.har } })
  expect(put.status).toBe(200)
  const largest = Math.max(...recording.shown.keys())
  expect(await put.json()).toMatchObject({
    name: 'learned',
    origin: 'capsule',
    pets: { count: recording.shown.size, nextId: largest + 1 },
  })
  const lastEntry = recording.har.log.entries.at(-1)!.startedDateTime
  const state = await (await learnerAdmin('/state', { session: 'learned' })).json()
  expect(Date.parse(state.now)).toBeGreaterThanOrEqual(Date.parse(lastEntry))
  expect(Date.parse(state.now)).toBeLessThanOrEqual(Date.parse(recording.clock) + 60_000)
  await checkLearned(
    (path, init = {}) =>
      learner.call(path, { ...init, headers: { ...(init.headers as object), 'x-sandbox-session': 'learned' } }),
    recording,
  )
  // Its reset returns to the recording's world.
  expect((await learnerAdmin('/reset', { method: 'POST', session: 'learned' })).status).toBe(200)
  expect(await (await learnerAdmin('/state', { session: 'learned' })).json()).toMatchObject({
    pets: { count: recording.shown.size, nextId: largest + 1 },
  })

  // start --from file.har: the default session of a CLI starts from it.
  const file = join(scratch, 'recorded.har')
  writeFileSync(file, JSON.stringify(recording.har))
  const started = await startCli(['--from', file, '--log', 'off', '--seed', '42'])
  try {
    await checkLearned((path, init = {}) => {
      const headers = new Headers(init.headers)
      headers.set('authorization', 'Bearer sandbox-enterprise-key')
      return fetch(`${started.url}${path}`, { ...init, headers })
    }, recording)
  } finally {
    await started.stop()
  }

  // createSandbox({ from: har }), in-process.
  const inProcess = createSandbox({ from: recording.har, seed: 5 })
  await checkLearned(async (path, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('authorization', 'Bearer sandbox-enterprise-key')
    const response = await inProcess.fetch(`http://api.test/v1${path}`, { ...init, headers })
    inProcessContract.check(init.method ?? 'GET', `http://api.test/v1${path}`, response)
    return response
  }, recording)
  expect(new Date(inProcess.clock.now()).toISOString() >= lastEntry).toBe(true)

  // learn file.har: the same world as a capsule, which restores as any capsule does.
  const learned = await runCli(['learn', file])
  expect(learned.code).toBe(0)
  const capsule = JSON.parse(learned.stdout) as Capsule
  expect(capsule).toMatchObject({
    kind: 'petstore-sandbox/capsule',
    version: 1,
    clock: lastEntry,
    nextId: largest + 1,
    quotas: {},
    keys: [],
  })
  expect(capsule.pets).toEqual([...recording.shown.values()].sort((a, b) => a.id - b.id))
  expect((await learnerAdmin('/sessions/from-capsule', { method: 'PUT', json: { capsule } })).status).toBe(200)
  await checkLearned(
    (path, init = {}) =>
      learner.call(path, { ...init, headers: { ...(init.headers as object), 'x-sandbox-session': 'from-capsule' } }),
    recording,
  )
}, 90_000)

/** One HAR entry of an answer, as a browser records it. */
function entry(
  method: string,
  url: string,
  status: number,
  body: unknown,
  startedDateTime = '2030-01-02T03:04:05.000Z',
) {
  return {
    startedDateTime,
    time: 1,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: -1, mimeType: 'application/json', text: JSON.stringify(body) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

it('keeps a backend’s pets to the contract’s fields, their latest showing, under any prefix, base64 bodies too', () => {
  const base64 = entry('GET', 'https://staging.example/api/v1/pets/8', 200, {})
  base64.response.content = {
    ...base64.response.content,
    text: btoa(JSON.stringify({ id: 8, name: 'Encoded', categoryId: 2 })),
    encoding: 'base64',
  } as never
  const har = {
    log: {
      version: '1.2',
      entries: [
        entry('GET', 'https://staging.example/v1/pets?limit=3', 200, [
          {
            id: 4,
            name: 'First name',
            categoryId: 1,
            status: 'available',
            createdAt: '2029-01-01T00:00:00Z',
            tags: ['a'],
          },
          { id: 6, name: 'Six', categoryId: 3 },
          { name: 'No id', categoryId: 3 },
        ]),
        entry('POST', 'https://staging.example/v1/pets', 201, {
          id: 40,
          name: 'Created',
          categoryId: 2,
          status: 'sold',
          createdAt: 'x',
        }),
        entry('GET', 'https://staging.example/v1/pets/4', 200, {
          id: 4,
          name: 'Renamed',
          categoryId: 1,
          status: 'sold',
        }),
        entry('GET', 'https://staging.example/v1/pets/5', 404, { code: 'not_found', message: 'no pet', status: 404 }),
        entry('GET', 'https://cdn.example/app.js', 200, 'not the API'),
        base64,
        entry('GET', 'https://staging.example/v1/pets', 200, [], '2030-01-02T03:09:00.250Z'),
      ],
    },
  }
  const sandbox = createSandbox({ from: har as never })
  // The clock starts at the last entry's instant, and runs on from there.
  expect(sandbox.clock.now() - Date.parse('2030-01-02T03:09:00.250Z')).toBeGreaterThanOrEqual(0)
  expect(sandbox.clock.now() - Date.parse('2030-01-02T03:09:00.250Z')).toBeLessThan(60_000)
  return (async () => {
    const listing = await (
      await sandbox.fetch('http://api.test/v1/pets', { headers: { authorization: 'Bearer sandbox-free-key' } })
    ).json()
    expect(listing).toEqual([
      { id: 4, name: 'Renamed', categoryId: 1, status: 'sold' },
      { id: 6, name: 'Six', categoryId: 3 },
      { id: 8, name: 'Encoded', categoryId: 2 },
      { id: 40, name: 'Created', categoryId: 2, status: 'sold' },
    ])
    const created = await sandbox.fetch('http://api.test/v1/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Next', categoryId: 1 }),
    })
    expect((await created.json()).id).toBe(41)
  })()
})

it('refuses what is not HAR, or has no entry to learn from, in one clear error, and makes nothing of it', async () => {
  const refusals: Array<[unknown, string]> = [
    [[], 'har must be an object'],
    [{ log: 'nope' }, 'har.log must be an object: har is not HAR'],
    [{ log: { entries: {} } }, 'har.log.entries must be an array: har is not HAR'],
    [{ log: { entries: [{ request: {} }] } }, 'har.log.entries[0].response must be an object'],
    [
      { log: { entries: [{ ...entry('GET', 'http://x/v1/pets', 200, []), startedDateTime: 'yesterday' }] } },
      'har.log.entries[0].startedDateTime must be an ISO 8601 instant',
    ],
    [{ log: { entries: [] } }, 'har has no entry to learn from: none of its 0 entries'],
    [
      { log: { entries: [entry('GET', 'http://x/v1/pets/1', 404, {}), entry('GET', 'http://x/app.js', 200, [])] } },
      'none of its 2 entries is a listPets 200',
    ],
  ]
  for (const [har, message] of refusals) {
    const response = await learnerAdmin('/sessions/broken', { method: 'PUT', json: { har } })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toContain(message)
    expect((await learnerAdmin('/sessions/broken')).status).toBe(404)
    expect(() => createSandbox({ from: { log: (har as { log?: unknown })?.log } as never })).toThrow()
  }
  const both = await learnerAdmin('/sessions/broken', {
    method: 'PUT',
    json: { har: { log: { entries: [] } }, from: 'default' },
  })
  expect(both.status).toBe(400)
  expect((await both.json()).message).toContain('must NOT have more than 1 properties')
  const library = createSandbox({ adminToken: TOKEN })
  await expect(
    library.sessions.put('both', { har: { log: { entries: [] } }, from: 'default' } as never),
  ).rejects.toThrow('init: give one of from, capsule or har, not har and from')

  const file = join(scratch, 'empty.har')
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [] } }))
  const started = await runCli(['start', '--port', '0', '--from', file])
  expect(started.code).not.toBe(0)
  expect(started.stderr.trim()).toBe(
    `error: har file ${file}: har has no entry to learn from: none of its 0 entries is a listPets 200, createPet 201 or getPet 200 with its JSON body (a HAR recorded with bodies: Playwright's recordHar with content 'embed', devtools' "Save all as HAR with content")`,
  )
  const learned = await runCli(['learn', file])
  expect(learned.code).toBe(1)
  expect(learned.stdout).toBe('')
  expect(learned.stderr).toContain(`error: har file ${file}: har has no entry to learn from`)
}, 60_000)
