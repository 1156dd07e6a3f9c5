import { expect, it } from 'vitest'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { startCli } from '../support/start-cli.js'
import { isPageAnswer } from '../support/pages-contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Sessions over real HTTP (D34): one CLI, several test workers each in a session of its own.
const TOKEN = 'admin-token-for-sessions'
const { call, url, contract } = useCliSandbox(['--admin-token', TOKEN, '--pets', '20', '--keep-requests', '1000'])
const adminContract = createAdminContractChecker()
const origin = () => url().replace(/\/v1$/, '')

interface Pet {
  id: number
  name: string
}

/** A call to the API in `session` (none: the default session). */
function api(
  path: string,
  session: string | undefined,
  init: RequestInit & { key?: string | null } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (session !== undefined) headers.set('x-sandbox-session', session)
  return call(path, { ...init, headers })
}

/** A call to the admin API, in `session` when given; every answer held to the admin contract. */
const admin = createAdminCaller(origin, TOKEN, adminContract)

const create = (name: string, session: string | undefined) =>
  api('/pets', session, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

it('runs 4 workers × 25 tests at once against one CLI, each in its own session with a reset per test: no collisions', async () => {
  const startUp = ((await (await api('/pets?limit=100', undefined)).json()) as Pet[]).map((pet) => pet.id)
  const collisions: string[] = []
  const worker = async (index: number) => {
    const session = `worker-${index}`
    for (let test = 0; test < 25; test++) {
      expect((await admin('/reset', { method: 'POST', session })).status).toBe(200)
      const mine = [`w${index}-t${test}-a`, `w${index}-t${test}-b`]
      const ids: number[] = []
      for (const name of mine) {
        const created = await create(name, session)
        if (created.status !== 201) collisions.push(`${session} test ${test}: create answered ${created.status}`)
        ids.push(((await created.json()) as Pet).id)
      }
      // A reset per test: the ids start over after the start-up pets, whatever the others do.
      if (ids.join() !== '21,22') collisions.push(`${session} test ${test}: ids ${ids.join()}`)
      const listed = (await (await api('/pets?limit=100', session)).json()) as Pet[]
      const expected = [...startUp, ...ids]
      if (listed.map((pet) => pet.id).join() !== expected.join())
        collisions.push(`${session} test ${test}: listed ${listed.map((pet) => pet.id).join()}`)
      const names = listed.slice(startUp.length).map((pet) => pet.name)
      if (names.join() !== mine.join()) collisions.push(`${session} test ${test}: saw ${names.join()}`)
      for (const id of ids) {
        const got = await api(`/pets/${id}`, session)
        if (got.status !== 200 || got.headers.get('x-sandbox-session') !== session)
          collisions.push(`${session} test ${test}: get ${id} answered ${got.status}`)
      }
    }
  }
  await Promise.all([0, 1, 2, 3].map(worker))
  expect(collisions).toEqual([])
  // The default session saw none of it.
  expect(((await (await api('/pets?limit=100', undefined)).json()) as Pet[]).map((pet) => pet.id)).toEqual(startUp)
  const state = await (await admin('/state')).json()
  expect(state).toMatchObject({ session: 'default', pets: { count: 20, nextId: 21 } })
}, 120_000)

it('keeps the clock, quota, faults and a key’s scenario per session, through the admin API’s header', async () => {
  expect(
    (await admin('/clock', { method: 'POST', session: 'late', json: { set: '2030-12-06T00:00:00Z' } })).status,
  ).toBe(200)
  const gone = await api('/pets/1', 'late')
  expect(gone.status).toBe(410)
  expect(gone.headers.get('x-sandbox-session')).toBe('late')
  expect((await api('/pets/1', 'early')).status).toBe(200)
  expect((await api('/pets/1', undefined)).status).toBe(200)
  expect((await (await admin('/clock', { session: 'late' })).json()).now.startsWith('2030-12-06')).toBe(true)

  expect(
    (await admin('/keys/sandbox-free-key', { method: 'PATCH', session: 'spent', json: { remaining: 0 } })).status,
  ).toBe(200)
  expect((await api('/pets', 'spent', { key: 'sandbox-free-key' })).status).toBe(429)
  expect((await api('/pets', 'fresh', { key: 'sandbox-free-key' })).status).toBe(200)
  const quota = await (await admin('/keys/sandbox-free-key', { session: 'fresh' })).json()
  expect(quota.quota.minute.used).toBe(1)

  expect(
    (await admin('/faults', { method: 'PUT', session: 'faulty', json: { errorRate: 1, kinds: ['503'] } })).status,
  ).toBe(200)
  const faulted = await api('/pets', 'faulty')
  expect(faulted.status).toBe(503)
  expect(faulted.headers.get('x-sandbox-fault')).toBe('error=503')
  expect((await api('/pets', 'calm')).status).toBe(200)
  expect((await (await admin('/faults')).json()).errorRate).toBe(0)

  expect(
    (await admin('/keys/sandbox-pro-key/scenario', { method: 'PUT', session: 'down', json: { name: 'down' } })).status,
  ).toBe(200)
  expect((await api('/pets', 'down', { key: 'sandbox-pro-key' })).status).toBe(503)
  expect((await api('/pets', 'up', { key: 'sandbox-pro-key' })).status).toBe(200)
  const state = await (await admin('/state', { session: 'down' })).json()
  expect(state.session).toBe('down')
  expect(state.keys.find((key: { key: string }) => key.key === 'sandbox-pro-key').scenario).toBe('down')
  expect(
    (await (await admin('/state')).json()).keys.find((key: { key: string }) => key.key === 'sandbox-pro-key').scenario,
  ).toBeUndefined()
})

it('refuses a bad session name with 400 naming the rule, on the API and the admin API', async () => {
  const rule = "X-Sandbox-Session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
  for (const bad of ['.dot', '-dash', 'sp ace', 'x'.repeat(65)]) {
    const refused = await api('/pets', bad)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ code: 'invalid_request', message: rule })
    expect(refused.headers.get('x-ratelimit-remaining')).not.toBeNull()
    const viaAdmin = await admin('/state', { session: bad })
    expect(viaAdmin.status).toBe(400)
    expect((await viaAdmin.json()).message).toBe(rule)
  }
  const byQuery = await admin('/requests?session=.dot')
  expect((await byQuery.json()).message).toBe(
    "session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'",
  )
  const both = await admin('/requests?session=one', { session: 'two' })
  expect(both.status).toBe(400)
  expect((await both.json()).message).toBe('X-Sandbox-Session and ?session= name different sessions; name one')
  expect((await admin('/sessions/.dot')).status).toBe(400)
})

it('refuses a key in force or the admin token as a session name, never echoing it, so no list or HAR shows one whole (D35)', async () => {
  const added = await admin('/keys', { method: 'POST', json: { key: 'team-runtime-key', plan: 'pro' } })
  expect(added.status).toBe(200)
  const refusal = (where: string) => ({
    code: 'invalid_request',
    status: 400,
    message: `${where} must not be an API key or the admin token`,
  })
  const refused = async (answer: Promise<Response>, where: string, secret: string) => {
    const response = await answer
    expect(response.status).toBe(400)
    const text = await response.text()
    expect(text).not.toContain(secret)
    expect(JSON.parse(text)).toEqual(refusal(where))
  }
  const secrets = ['sandbox-pro-key', TOKEN, 'team-runtime-key']
  for (const secret of secrets) {
    await refused(create('Named after a key', secret), 'X-Sandbox-Session', secret)
    await refused(
      call('/pets', { headers: { baggage: `sandbox-session=${secret}` } }),
      "baggage's sandbox-session",
      secret,
    )
    await refused(admin('/state', { session: secret }), 'X-Sandbox-Session', secret)
    await refused(admin(`/requests?session=${secret}`), 'session', secret)
    await refused(admin(`/sessions/${secret}`, { method: 'PUT', json: {} }), 'the session name in the path', secret)
    // Reading or deleting goes by any name: there is no such session.
    expect((await admin(`/sessions/${secret}`)).status).toBe(404)
  }
  const listed = await (await admin('/sessions')).text()
  const requests = await (await admin('/requests')).text()
  const har = await (await admin('/requests.har')).text()
  for (const secret of secrets) for (const shown of [listed, requests, har]) expect(shown).not.toContain(secret)
  // The refused requests are the default session's, listed as any refusal is.
  expect(
    (JSON.parse(requests) as { requests: Array<{ status: number; session?: string }> }).requests.filter(
      (entry) => entry.status === 400,
    ).length,
  ).toBeGreaterThanOrEqual(6)
})

it('reads the session from baggage without the header: other members ignored, a malformed header ignored, a bad name a 400', async () => {
  const inBaggage = (baggage: string, init: RequestInit = {}) =>
    call('/pets?limit=100', { ...init, headers: { ...init.headers, baggage } })
  const created = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json', baggage: 'userId=alice,sandbox-session=carried;ttl=1' },
    body: JSON.stringify({ name: 'Carried', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-session')).toBe('carried')
  const listed = (await (await inBaggage('sandbox-session=carried')).json()) as Pet[]
  expect(listed.map((pet) => pet.name)).toContain('Carried')
  expect(((await (await api('/pets?limit=100', 'carried')).json()) as Pet[]).map((pet) => pet.name)).toContain(
    'Carried',
  )
  // The header wins; a malformed baggage header is the default session's, as no header is.
  const headerWins = await call('/pets?limit=100', {
    headers: { 'x-sandbox-session': 'other', baggage: 'sandbox-session=carried' },
  })
  expect(((await headerWins.json()) as Pet[]).map((pet) => pet.name)).not.toContain('Carried')
  const malformed = await inBaggage('sandbox-session=carried, not a member')
  expect(malformed.headers.get('x-sandbox-session')).toBeNull()
  expect(((await malformed.json()) as Pet[]).map((pet) => pet.name)).not.toContain('Carried')
  const bad = await inBaggage('sandbox-session=.dot')
  expect(bad.status).toBe(400)
  expect(await bad.json()).toMatchObject({
    code: 'invalid_request',
    message: "baggage's sandbox-session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'",
  })
  // The admin API reads it too.
  const state = await admin('/state', { headers: { baggage: 'sandbox-session=carried' } })
  expect(await state.json()).toMatchObject({ session: 'carried', pets: { count: 21 } })
  const preflight = await fetch(`${url()}/pets`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://app.test',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization, baggage',
    },
  })
  expect(preflight.headers.get('access-control-allow-headers')).toContain('baggage')
})

it('allows the header in a preflight and exposes it to a page', async () => {
  const preflight = await fetch(`${url()}/pets`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://app.test',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization, x-sandbox-session',
    },
  })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Sandbox-Session')
  const answered = await api('/pets?limit=1', 'page', { headers: { origin: 'http://app.test' } })
  expect(answered.headers.get('access-control-expose-headers')).toContain('X-Sandbox-Session')
})

it('streams one session’s requests to the dashboard’s event stream named by ?session=, as an EventSource can', async () => {
  const controller = new AbortController()
  const target = `${origin()}/__sandbox/events?session=streamed`
  const stream = await fetch(target, { headers: { authorization: `Bearer ${TOKEN}` }, signal: controller.signal })
  expect(isPageAnswer('GET', target, stream)).toBe(true)
  contract.check('GET', target, stream)
  expect(stream.status).toBe(200)
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
  await reader.read()
  await api('/pets?limit=2', undefined)
  await api('/pets?limit=3', 'another')
  await api('/pets?limit=4', 'streamed')
  let text = ''
  while (!text.includes('\n\n')) text += (await reader.read()).value
  controller.abort()
  const entry = JSON.parse(text.split('\n')[1]!.slice('data: '.length))
  expect(entry).toMatchObject({ path: '/v1/pets?limit=4', session: 'streamed' })
  const refused = await fetch(`${origin()}/__sandbox/events?session=.bad`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  contract.check('GET', refused.url, refused)
  expect(refused.status).toBe(400)
  // Two names, as the exports refuse them: the stream does not pick the first.
  for (const path of ['/events', '/requests']) {
    const twice = await fetch(`${origin()}/__sandbox${path}?session=a&session=b`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    ;(path === '/events' ? contract : adminContract).check('GET', twice.url, twice)
    expect(twice.status).toBe(400)
    expect((await twice.json()).message).toBe('session must be a string')
  }
})

it('tells an admin call with an empty JSON body to send a JSON object, not a pet', async () => {
  const response = await admin('/clock', { method: 'POST', headers: { 'content-type': 'application/json' } })
  expect(response.status).toBe(400)
  expect((await response.json()).message).toBe(
    "body is required: send a JSON object, as the admin document's moveClock describes",
  )
})

it('lists, forks, reads and deletes sessions; the default one cannot be deleted', async () => {
  await create('made in source', 'source')
  const forked = await admin('/sessions/fork-of-source', { method: 'PUT', json: { from: 'source' } })
  expect(forked.status).toBe(200)
  expect(await forked.json()).toMatchObject({
    name: 'fork-of-source',
    origin: 'fork',
    from: 'source',
    pets: { count: 21, nextId: 22 },
  })
  expect(((await (await api('/pets/21', 'fork-of-source')).json()) as Pet).name).toBe('made in source')
  await create('only in the fork', 'fork-of-source')
  expect((await api('/pets/22', 'source')).status).toBe(404)

  const { sessions } = (await (await admin('/sessions')).json()) as {
    sessions: Array<{ name: string; requests: number }>
  }
  // The default first, then the most recently used.
  expect(sessions.slice(0, 3).map((session) => session.name)).toEqual(['default', 'source', 'fork-of-source'])
  expect(sessions.map((session) => session.name)).toContain('worker-3')
  expect((await admin('/sessions/fork-of-source')).status).toBe(200)
  expect((await admin('/sessions/nobody-here')).status).toBe(404)
  expect((await admin('/sessions/nobody-here', { method: 'PUT', json: { from: 'nowhere' } })).status).toBe(404)

  const requests = (await (await admin('/requests?session=fork-of-source')).json()).requests as Array<{
    session: string
    path: string
  }>
  expect(requests.map((entry) => entry.session)).toEqual(['fork-of-source', 'fork-of-source'])
  const harByHeader = (await (await admin('/requests.har', { session: 'fork-of-source' })).json()) as {
    log: { entries: Array<{ _session: string }> }
  }
  expect(harByHeader.log.entries.map((entry) => entry._session)).toEqual(['fork-of-source', 'fork-of-source'])
  // ?session= names it as the header does, for a download link (what a replay of one session needs).
  expect(
    ((await (await admin('/requests.har?session=fork-of-source')).json()) as typeof harByHeader).log.entries,
  ).toEqual(harByHeader.log.entries)

  const deleted = await admin('/sessions/fork-of-source', { method: 'DELETE' })
  expect(await deleted.json()).toEqual({ name: 'fork-of-source', deleted: true })
  expect((await admin('/sessions/fork-of-source', { method: 'DELETE' })).status).toBe(404)
  const conflict = await admin('/sessions/default', { method: 'DELETE' })
  expect(conflict.status).toBe(409)
  expect((await conflict.json()).code).toBe('conflict')
})

it('drops the least recently used session beyond --max-sessions and an idle one by the default session’s clock, saying so', async () => {
  const cli = await startCli([
    '--admin-token',
    TOKEN,
    '--pets',
    '3',
    '--max-sessions',
    '2',
    '--session-idle',
    '90s',
    '--log',
    'off',
  ])
  const on = (session: string) =>
    fetch(`${cli.url}/pets`, { headers: { authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': session } })
  const names = async () =>
    (
      (await (
        await fetch(`${cli.url.replace(/\/v1$/, '')}/__sandbox/sessions`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).json()) as {
        sessions: Array<{ name: string }>
      }
    ).sessions.map((session) => session.name)
  try {
    expect(cli.output()).toContain('Sessions: X-Sandbox-Session, up to 2, idle after 90s')
    for (const session of ['one', 'two', 'one', 'three']) expect((await on(session)).status).toBe(200)
    expect(await names()).toEqual(['default', 'three', 'one'])
    await expect.poll(() => cli.output()).toContain('Session two dropped: least recently used, over --max-sessions 2')
    const move = (body: object, session?: string) =>
      fetch(`${cli.url.replace(/\/v1$/, '')}/__sandbox/clock`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          ...(session ? { 'x-sandbox-session': session } : {}),
        },
        body: JSON.stringify(body),
      })
    // A session's own clock expires nothing; the default session's does.
    await move({ advanceMs: 3_600_000 }, 'one')
    expect(await names()).toEqual(['default', 'one', 'three'])
    await move({ advanceMs: 91_000 })
    expect(await names()).toEqual(['default'])
    await expect.poll(() => cli.output()).toContain('Session three dropped: idle for 90s (--session-idle)')
  } finally {
    await cli.stop()
  }
})

it('deletes every named session with DELETE /__sandbox/sessions, or one run’s by ?prefix=, and leaves the default session', async () => {
  for (const name of ['mine-1', 'mine-2', 'theirs-1']) expect((await create(`In ${name}`, name)).status).toBe(201)
  const mine = await admin('/sessions?prefix=mine-', { method: 'DELETE' })
  expect(mine.status).toBe(200)
  expect(((await mine.json()).deleted as string[]).sort()).toEqual(['mine-1', 'mine-2'])
  const left = ((await (await admin('/sessions')).json()).sessions as { name: string }[]).map((session) => session.name)
  expect(left).toContain('theirs-1')
  expect(left).not.toContain('mine-1')
  const all = await (await admin('/sessions', { method: 'DELETE' })).json()
  expect(all.deleted).toContain('theirs-1')
  expect(
    ((await (await admin('/sessions')).json()).sessions as { name: string }[]).map((session) => session.name),
  ).toEqual(['default'])
  expect((await admin('/sessions?prefix=', { method: 'DELETE' })).status).toBe(400)
})

it('gives a key a quota per session and no ceiling across them, the worlds bounded by --max-sessions (D34)', async () => {
  const token = 'admin-token-for-max-sessions'
  const cli = await startCli(['--admin-token', token, '--max-sessions', '2', '--pets', '1'])
  try {
    const served = cli.url.replace(/\/v1$/, '')
    const sessionAdmin = createAdminCaller(() => served, token, adminContract)
    const get = async (session: string) => {
      const response = await fetch(`${cli.url}/pets?limit=1`, {
        headers: { authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': session },
      })
      contract.check('GET', response.url, response.clone())
      await response.arrayBuffer()
      return response
    }
    expect(
      (await sessionAdmin('/keys/sandbox-free-key', { method: 'PATCH', session: 'spent', json: { remaining: 0 } }))
        .status,
    ).toBe(200)
    expect((await get('spent')).status).toBe(429)
    // Two more sessions: the key's spent world is dropped, and at most two quotas are held at once.
    for (const session of ['second', 'third']) expect((await get(session)).status).toBe(200)
    const { sessions } = (await (await sessionAdmin('/sessions')).json()) as { sessions: Array<{ name: string }> }
    expect(sessions.map(({ name }) => name).filter((name) => name !== 'default')).toEqual(
      expect.not.arrayContaining(['spent']),
    )
    expect(sessions.length).toBeLessThanOrEqual(3)
    const again = await get('spent')
    expect(again.status).toBe(200)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('59')
  } finally {
    await cli.stop()
  }
}, 60_000)
