import { expect, it } from 'vitest'
import { createRequestLog } from '../../src/core/request-log/create-request-log.js'

const entry = (n: number) => ({
  time: 0,
  method: 'GET',
  url: new URL(`http://x/v1/pets?n=${n}&token=abc`),
  status: 200,
  durationMs: 1,
  authorization: 'Bearer sandbox-free-key',
})

it('keeps the last entries, oldest first, once the ring wraps around', () => {
  const log = createRequestLog(3)
  for (let n = 1; n <= 7; n++) log.record(entry(n))
  expect(log.last().map((e) => e.path)).toEqual(['/v1/pets?n=5&token=…', '/v1/pets?n=6&token=…', '/v1/pets?n=7&token=…'])
  expect(log.last(1).map((e) => e.path)).toEqual(['/v1/pets?n=7&token=…'])
  expect(log.last(0)).toEqual([])
  expect(JSON.stringify(log.last())).not.toContain('sandbox-free-key')
})

it('keeps nothing with a capacity of 0', () => {
  const log = createRequestLog(0)
  log.record(entry(1))
  expect(log.last()).toEqual([])
})

it('masks a configured key that a client put in the path', () => {
  const log = createRequestLog(2, () => ['team-secret-key'])
  log.record({ ...entry(1), url: new URL('http://x/v1/pets/team-secret-key') })
  expect(log.last()[0]?.path).toMatch(/^\/v1\/pets\/team…#[0-9a-f]{4}$/)
})
