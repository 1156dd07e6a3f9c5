import { expect, it } from 'vitest'
import {
  type Answered,
  BODY_LIMIT,
  createRequestLog,
  EXCHANGES_KEPT,
} from '../../src/core/request-log/create-request-log.js'

const answer = (n: number, extra: Partial<Answered> = {}): Answered => ({
  time: n * 1000,
  method: 'GET',
  target: `/v1/pets?n=${n}&token=abc`,
  status: 200,
  durationMs: 1.26,
  requestHeaders: [
    ['Authorization', 'Bearer sandbox-free-key'],
    ['Accept', 'application/json'],
  ],
  responseHeaders: new Headers({ 'content-type': 'application/json' }),
  ...extra,
})

it('keeps the last listed entries, oldest first, once the ring wraps around', () => {
  const log = createRequestLog(3)
  for (let n = 1; n <= 7; n++) log.record(answer(n))
  expect(log.last().map((e) => e.path)).toEqual([
    '/v1/pets?n=5&token=…',
    '/v1/pets?n=6&token=…',
    '/v1/pets?n=7&token=…',
  ])
  expect(log.last(1).map((e) => e.path)).toEqual(['/v1/pets?n=7&token=…'])
  expect(log.last(0)).toEqual([])
  expect(log.last(100)).toHaveLength(3)
  expect(JSON.stringify(log.last())).not.toContain('sandbox-free-key')
  log.clear()
  log.record(answer(8))
  expect(log.last().map((e) => e.path)).toEqual(['/v1/pets?n=8&token=…'])
})

it('shows one entry with what a HAR entry needs: id, time, both header lists masked, status, timing, source', () => {
  const log = createRequestLog(1)
  log.record(answer(1, { source: 'upstream', fault: 'latency=5ms' }))
  expect(log.last()).toEqual([
    {
      id: expect.stringMatching(/^[0-9a-f]{6}-1$/),
      time: '1970-01-01T00:00:01.000Z',
      method: 'GET',
      path: '/v1/pets?n=1&token=…',
      status: 200,
      durationMs: 1.3,
      key: expect.stringMatching(/^sand…#[0-9a-f]{4}$/),
      fault: 'latency=5ms',
      source: 'upstream',
      requestHeaders: [
        { name: 'Authorization', value: expect.stringMatching(/^Bearer sand…#[0-9a-f]{4}$/) },
        { name: 'Accept', value: 'application/json' },
      ],
      responseHeaders: [{ name: 'content-type', value: 'application/json' }],
    },
  ])
})

it('keeps the bodies of the last exchanges beside their entries, finds one by its id, and leaves out a body over the limit', () => {
  const log = createRequestLog(EXCHANGES_KEPT + 1)
  const big = 'x'.repeat(BODY_LIMIT + 1)
  log.record(answer(1, { scenario: 'down' }), {
    bodies: { origin: 'http://sandbox.test', requestBody: big, responseBody: '{"a":1}' },
  })
  for (let n = 2; n <= EXCHANGES_KEPT + 1; n++)
    log.record(answer(n), { bodies: { origin: 'http://sandbox.test', responseBody: `{"n":${n}}` } })
  const kept = log.select()
  expect(kept).toHaveLength(EXCHANGES_KEPT + 1)
  // The oldest entry keeps its entry (id, scenario) but no longer its bodies.
  expect(kept[0]!.entry).toMatchObject({ id: expect.any(String), scenario: 'down' })
  expect(kept[0]!.bodies).toBeUndefined()
  expect(kept[1]!.bodies).toEqual({ origin: 'http://sandbox.test', responseBody: '{"n":2}' })
  const last = kept.at(-1)!
  expect(log.exchange(last.entry.id!)).toEqual(last)
  expect(log.exchange('nothing-1')).toBeUndefined()
  expect(new Set(kept.map((exchange) => exchange.entry.id)).size).toBe(kept.length)

  const capped = createRequestLog(2)
  capped.record(answer(1), { bodies: { origin: 'http://sandbox.test', requestBody: big, responseBody: '{}' } })
  expect(capped.select()[0]!.bodies).toEqual({
    origin: 'http://sandbox.test',
    responseBody: '{}',
    omitted: { request: BODY_LIMIT + 1 },
  })
  // An answer not listed gets no id and is not kept.
  capped.record(answer(2), { listed: false, bodies: { origin: 'http://sandbox.test' } })
  expect(capped.select()).toHaveLength(1)
})

it('keeps nothing with a capacity of 0, and still tells its watchers', () => {
  const log = createRequestLog(0)
  const seen: string[] = []
  const stop = log.subscribe((entry) => seen.push(entry.path))
  log.record(answer(1))
  stop()
  log.record(answer(2))
  expect(seen).toEqual(['/v1/pets?n=1&token=…'])
  expect(log.last()).toEqual([])
})

it('masks the keys in force when read, a key added after the answer included', () => {
  const keys = ['team-secret-key']
  const log = createRequestLog(2, () => ({ keys }))
  log.record(answer(1, { target: '/v1/pets/team-secret-key' }))
  log.record(answer(2, { target: '/v1/pets?q=later-added-key' }))
  keys.push('later-added-key')
  const [first, second] = log.last()
  expect(first?.path).toMatch(/^\/v1\/pets\/team…#[0-9a-f]{4}$/)
  expect(second?.path).toMatch(/^\/v1\/pets\?q=late…#[0-9a-f]{4}$/)
})

it('gives an unlisted answer (an admin call the gate let through) to the watchers of every answer only', () => {
  const log = createRequestLog(5)
  const listed: string[] = []
  const every: string[] = []
  log.subscribe((entry) => listed.push(`${entry.path} ${entry.key}`))
  log.watch((entry) => every.push(`${entry.path} ${entry.key}`))
  const admin = (status: number, token: string): Answered =>
    answer(0, { target: '/__sandbox/state', status, requestHeaders: [['authorization', `Bearer ${token}`]] })
  log.record(admin(200, 'the-admin-token'), { listed: false })
  log.record(admin(401, 'a-wrong-guess'))
  expect(every).toEqual(['/__sandbox/state admin', expect.stringMatching(/^\/__sandbox\/state refused:…#[0-9a-f]{4}$/)])
  expect(listed).toEqual([every[1]])
  expect(log.last().map((entry) => entry.status)).toEqual([401])
  expect(JSON.stringify(log.last())).not.toMatch(/the-admin-token|a-wrong-guess|Bearer the|Bearer a-/)
})

it('keeps a URL encoded: a key the client percent-encoded is masked, and what decodes to controls stays encoded', () => {
  const log = createRequestLog(1, () => ({ keys: ['sandbox-free-key'] }))
  log.record(answer(1, { target: '/v1/pets?limit=1&q=sandbox%2Dfree%2Dkey%0d%0aPOST%20/__sandbox/reset%20200%1b[2K' }))
  expect(log.last()[0]?.path).toMatch(
    /^\/v1\/pets\?limit=1&q=sand…#[0-9a-f]{4}%0d%0aPOST%20\/__sandbox\/reset%20200%1b\[2K$/,
  )
})

it('forwards each listed entry, built once, to the shared log, and no unlisted one', () => {
  const log = createRequestLog(2)
  const shared: string[] = []
  const watched: string[] = []
  log.forward((entry) => shared.push(`${entry.path} ${entry.status}`))
  log.watch((entry) => watched.push(`${entry.path} ${entry.status}`))
  log.record(answer(1))
  log.record(answer(0, { target: '/__sandbox/state' }), { listed: false })
  expect(shared).toEqual(['/v1/pets?n=1&token=… 200'])
  expect(watched).toEqual(['/v1/pets?n=1&token=… 200', '/__sandbox/state 200'])
})

it("counts each session's kept entries as they come, age out and are cleared", () => {
  const log = createRequestLog(4)
  const sessions = [undefined, 'a', 'b', 'a', 'a', undefined, 'b']
  for (const [n, session] of sessions.entries()) log.record(answer(n + 1, { session }), { listed: true })
  // Kept: the last 4 (a, a, default, b).
  expect([
    log.count({ session: undefined }),
    log.count({ session: 'a' }),
    log.count({ session: 'b' }),
    log.count(),
  ]).toEqual([1, 2, 1, 4])
  expect(log.count({ session: 'a' })).toBe(log.last(4, { session: 'a' }).length)
  log.record(answer(8, { session: 'c' }), { listed: false })
  expect(log.count({ session: 'c' })).toBe(0)
  log.clear({ session: 'a' })
  expect([log.count({ session: 'a' }), log.count({ session: 'b' }), log.count()]).toEqual([0, 1, 2])
  log.clear()
  expect(log.count({ session: 'b' })).toBe(0)
  expect(createRequestLog(0).count({ session: 'a' })).toBe(0)
})
