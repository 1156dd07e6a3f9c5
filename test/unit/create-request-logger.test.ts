import { expect, it } from 'vitest'
import { createRequestLogger, escapeControls } from '../../src/core/request-log/create-request-logger.js'
import type { RequestLogEntry } from '../../src/core/request-log/create-request-log.js'

const entry = (extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  time: '2030-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v1/pets?limit=1',
  status: 200,
  durationMs: 1.2,
  key: 'sand…#1a2b',
  ...extra,
})

function lines(format: 'pretty' | 'json', colour: boolean, ...entries: RequestLogEntry[]): string[] {
  const written: string[] = []
  const logger = createRequestLogger(
    format,
    (line) => written.push(line),
    colour,
    () => 0,
  )
  for (const one of entries) logger.answer(one)
  return written
}

it('prints one pretty line per answer, with the source under the proxy and colour only when asked', () => {
  expect(
    lines('pretty', false, entry(), entry({ status: 0, fault: 'drop' }), entry({ status: 502, source: 'sandbox' })),
  ).toEqual([
    'GET /v1/pets?limit=1 200 1.2ms key=sand…#1a2b',
    'GET /v1/pets?limit=1 dropped 1.2ms key=sand…#1a2b',
    'GET /v1/pets?limit=1 502 1.2ms key=sand…#1a2b source=sandbox',
  ])
  expect(lines('pretty', true, entry({ status: 404 }))).toEqual([
    'GET /v1/pets?limit=1 \u001b[33m404\u001b[0m 1.2ms key=sand…#1a2b',
  ])
})

it('escapes every control character a client could smuggle into a pretty line', () => {
  const forged = entry({
    method: 'GET\u001b[2K',
    path: '/v1/pets?q=a\r\nPOST /__sandbox/reset 200\u009b1A\u2028',
    key: 'x\u0007',
  })
  const [line, ...rest] = lines('pretty', true, forged)
  expect(rest).toEqual([])
  expect(line).toBe(
    'GET\\x1b[2K /v1/pets?q=a\\x0d\\x0aPOST /__sandbox/reset 200\\x9b1A\\u2028 \u001b[32m200\u001b[0m 1.2ms key=x\\x07',
  )
  expect(escapeControls('plain é …#1a2b')).toBe('plain é …#1a2b')
})

it('writes one JSON line per answer that parses back to the entry, with the controls JSON leaves raw escaped', () => {
  const [line] = lines('json', false, entry({ path: '/a\r\n\u009b\u2028', fault: 'error=503', source: 'upstream' }))
  expect(line).not.toMatch(/[\r\n\u009b\u2028]/)
  expect(JSON.parse(line!)).toEqual({
    time: '2030-01-01T00:00:00.000Z',
    method: 'GET',
    url: '/a\r\n\u009b\u2028',
    status: 200,
    ms: 1.2,
    key: 'sand…#1a2b',
    fault: 'error=503',
    source: 'upstream',
  })
})

it('writes nothing with off', () => {
  const written: string[] = []
  const logger = createRequestLogger('off', (line) => written.push(line), false)
  logger.answer(entry())
  logger.problem('x')
  expect(written).toEqual([])
})
