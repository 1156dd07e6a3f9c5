import { expect, it } from 'vitest'
import { createProxyRequestLog, type ProxyRequestEntry } from '../../src/node/proxy/create-proxy-request-log.js'

const entry = (n: number, source: ProxyRequestEntry['source'] = 'upstream'): ProxyRequestEntry => ({
  time: new Date(n * 1000).toISOString(),
  method: 'GET',
  path: `/v1/pets?n=${n}`,
  status: 200,
  durationMs: 1,
  key: '-',
  source,
})

it('keeps the last answers, oldest first, bounded by its capacity once the ring wraps around', () => {
  const log = createProxyRequestLog(3)
  for (let n = 1; n <= 7; n++) log.record(entry(n, n % 2 === 0 ? 'sandbox' : 'upstream'))
  expect(log.last().map((e) => [e.path, e.source])).toEqual([
    ['/v1/pets?n=5', 'upstream'],
    ['/v1/pets?n=6', 'sandbox'],
    ['/v1/pets?n=7', 'upstream'],
  ])
  expect(log.last(1).map((e) => e.path)).toEqual(['/v1/pets?n=7'])
  expect(log.last(0)).toEqual([])
  expect(log.last(100)).toHaveLength(3)
})

it('tells each watcher of every answer, even with nothing kept, until it unsubscribes', () => {
  const log = createProxyRequestLog(0)
  const seen: string[] = []
  const stop = log.onRequest((shown) => seen.push(shown.path))
  log.record(entry(1))
  stop()
  log.record(entry(2))
  expect(seen).toEqual(['/v1/pets?n=1'])
  expect(log.last()).toEqual([])
})

it('starts over empty after clear', () => {
  const log = createProxyRequestLog(2)
  log.record(entry(1))
  log.record(entry(2))
  log.clear()
  log.record(entry(3))
  expect(log.last().map((e) => e.path)).toEqual(['/v1/pets?n=3'])
})
