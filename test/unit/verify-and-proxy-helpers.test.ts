import { brotliCompressSync, gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { createRouter } from '../../src/core/contract/create-router.js'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'
import { decodeBody } from '../../src/node/proxy/decode-body.js'
import { fallsBackOn } from '../../src/node/proxy/create-forwarding-handler.js'
import { upstreamHeaders } from '../../src/node/proxy/upstream-headers.js'
import {
  checkHeaders,
  createExchangeChecker,
  type JudgedExchange,
  parseJsonBody,
  retryAfterSeconds,
} from '../../src/node/verify/create-exchange-checker.js'
import { formatHtmlReport, formatJunitReport } from '../../src/node/verify/format-report.js'
import { diagnose, type VerifyReport } from '../../src/node/verify/report.js'

const router = createRouter(openapiDocument)
const operation = (method: string, path: string) => {
  const match = router.match(method, path)
  return match.kind === 'operation' ? match.operation : undefined
}

function getPetAnswer(url: string, headers: Record<string, string>): JudgedExchange {
  const base = {
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': '4102444800',
    deprecation: '@1764892800',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  }
  return {
    method: 'GET',
    url,
    path: '/pets/1',
    query: new URLSearchParams(),
    credential: 'key',
    status: 200,
    headers: { ...base, ...headers },
    bodyText: '',
    body: undefined,
    receivedAt: Date.parse('2026-01-01T00:00:00Z'),
  }
}

it('resolves the successor Link against the request, so a backend under another base path is judged by its own', () => {
  const link = (value: string, url: string, basePath: string) =>
    checkHeaders(getPetAnswer(url, { link: value }), 'getPet', basePath).map((found) => found.promise)
  expect(link('</api/v1/pets>; rel="successor-version"', 'https://staging.example/api/v1/pets/1', '/api/v1')).toEqual(
    [],
  )
  expect(link('<../pets>; rel="successor-version"', 'https://staging.example/api/v1/pets/1', '/api/v1')).toEqual([])
  expect(link('</v1/pets>; rel="successor-version"', 'https://staging.example/api/v1/pets/1', '/api/v1')).toEqual([
    'deprecation-headers',
  ])
  expect(link('</api/v1/pets>; rel="predecessor-version"', 'https://staging.example/api/v1/pets/1', '/api/v1')).toEqual(
    ['deprecation-headers'],
  )
})

it("holds a 429's body to the sandbox's decision only (the spec does not show it), and a name stored trimmed as the name sent", async () => {
  const checker = createExchangeChecker('/v1')
  const rateLimit = {
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '4102444800',
    'retry-after': '30',
  }
  const answer = (
    status: number,
    headers: Record<string, string>,
    bodyText: string,
    request: Partial<JudgedExchange> = {},
  ): JudgedExchange => ({
    method: 'GET',
    url: 'http://upstream.test/v1/pets',
    path: '/pets',
    query: new URLSearchParams(),
    credential: 'key',
    status,
    headers: { ...rateLimit, ...headers },
    bodyText,
    body: parseJsonBody(bodyText),
    receivedAt: Date.parse('2026-01-01T00:00:00Z'),
    ...request,
  })
  const found = async (exchange: JudgedExchange) =>
    (await checker.check(exchange)).map(({ promise, expected }) => `${promise}: ${expected}`)
  expect(await found(answer(429, { 'content-type': 'text/plain' }, 'Slow down'))).toEqual([
    'sandbox-contract: D2: The received media type "text/plain" does not match the one specified in the current response: application/json',
    'sandbox-contract: D2: Response body must be object (body)',
  ])
  // The same body on a status whose body the spec shows is drift from the spec.
  expect(await found(answer(200, { 'content-type': 'text/plain' }, 'Slow down'))).toContain(
    'matches-contract: a JSON body (content-type text/plain)',
  )
  const created = (name: string) =>
    answer(
      201,
      { 'content-type': 'application/json' },
      JSON.stringify({ id: 51, name, categoryId: 2, status: 'available' }),
      {
        method: 'POST',
        requestBody: { name: '  Biscuit ', categoryId: 2 },
      },
    )
  expect(await found(created('Biscuit'))).toEqual([])
  expect(await found(created('biscuit'))).toEqual(['create-then-get: the created Pet to echo name'])
})

it('falls back on 501 for any operation, on 404 only where the operation has no 404 of its own', () => {
  expect(fallsBackOn(501, operation('GET', '/pets/1'))).toBe(true)
  expect(fallsBackOn(404, operation('GET', '/pets'))).toBe(true)
  expect(fallsBackOn(404, operation('POST', '/pets'))).toBe(true)
  expect(fallsBackOn(404, operation('GET', '/pets/1'))).toBe(false)
  expect(fallsBackOn(501, operation('GET', '/store/orders'))).toBe(false)
  expect(fallsBackOn(500, operation('GET', '/pets'))).toBe(false)
})

it('reads compressed bodies for checking, an undecodable one as no body, and stops one that decodes past its cap', async () => {
  expect(await decodeBody(gzipSync('[1]'), 'gzip', 1024)).toEqual({ kind: 'text', text: '[1]' })
  expect(await decodeBody(brotliCompressSync('[2]'), 'br', 1024)).toEqual({ kind: 'text', text: '[2]' })
  expect(await decodeBody(Buffer.from('[3]'), undefined, 1024)).toEqual({ kind: 'text', text: '[3]' })
  expect(await decodeBody(Buffer.from('not gzip'), 'gzip', 1024)).toEqual({ kind: 'undecodable' })
  // 64 MiB of spaces in a few kilobytes: no more than the cap is ever decoded.
  const bomb = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024, 32))
  expect(bomb.length).toBeLessThan(4096)
  expect(await decodeBody(bomb, 'br', 1024 * 1024)).toEqual({ kind: 'too-large' })
})

it("passes the upstream's headers on as they came, less the connection's own, with the length written and the source", () => {
  const raw = [
    'Content-Type',
    'application/json',
    'Set-Cookie',
    'a=1',
    'Set-Cookie',
    'b=2',
    'Connection',
    'keep-alive',
    'Transfer-Encoding',
    'chunked',
    'Content-Length',
    '99',
    'X-Sandbox-Source',
    'forged',
  ]
  expect(upstreamHeaders(raw, 3, false)).toEqual([
    'Content-Type',
    'application/json',
    'Set-Cookie',
    'a=1',
    'Set-Cookie',
    'b=2',
    'Content-Length',
    '3',
    'X-Sandbox-Source',
    'upstream',
  ])
  // A HEAD answer keeps the upstream's length: it describes the GET's body, which is not sent.
  expect(upstreamHeaders(['Content-Length', '99'], 0, true)).toEqual([
    'Content-Length',
    '99',
    'X-Sandbox-Source',
    'upstream',
  ])
})

it('writes JUnit XML and HTML with markup and control characters of an answer made harmless', () => {
  const report: VerifyReport = {
    baseUrl: 'http://127.0.0.1/v1',
    key: 'sand…#0000',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    requests: 1,
    strict: false,
    diagnosis: ['errors in <script>alert(1)</script>'],
    passed: 0,
    failed: 1,
    warned: 0,
    skipped: 0,
    promises: [
      {
        id: 'error-bodies',
        title: 'errors',
        source: { kind: 'seed', sections: '§7 Errors' },
        outcome: 'failed',
        failureCount: 1,
        failures: [
          { request: 'GET /v1/pets', got: '401 | <html a="b">&\u0000\u001b</html>', expected: 'an Error body' },
        ],
      },
    ],
  }
  const xml = formatJunitReport(report)
  expect(xml).toContain('got:      401 | &#60;html a=&#34;b&#34;&#62;&#38;&#60;/html&#62;')
  expect(xml.includes('\u0000') || xml.includes('\u001b')).toBe(false)
  expect(xml).toContain('<testsuites name="petstore-sandbox verify" tests="1" failures="1" skipped="0" errors="0"')
  expect(xml).toContain('<property name="diagnosis" value="errors in &#60;script&#62;alert(1)&#60;/script&#62;"/>')
  const html = formatHtmlReport(report)
  expect(html).toContain('<li>errors in &#60;script&#62;alert(1)&#60;/script&#62;</li>')
  expect(html).toContain('<code>401 | &#60;html a=&#34;b&#34;&#62;&#38;&#60;/html&#62;</code>')
  expect(html.includes('\u0000') || html.includes('\u001b') || html.includes('<script')).toBe(false)
})

it('reads Retry-After in seconds or as an HTTP-date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  expect(retryAfterSeconds('7', now)).toBe(7)
  expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30)
  expect(retryAfterSeconds('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0)
  expect(retryAfterSeconds('soon', now)).toBeUndefined()
  expect(retryAfterSeconds(undefined, now)).toBeUndefined()
})

it('diagnoses errors in another format, naming problem+json, and a base path without /v1', () => {
  const problem: JudgedExchange = {
    ...getPetAnswer('https://staging.example/api/pets?limit=0', { 'content-type': 'application/problem+json' }),
    path: '/pets',
    query: new URLSearchParams('limit=0'),
    status: 422,
    bodyText: '{"type":"about:blank","title":"Unprocessable Entity","status":422}',
  }
  expect(diagnose([problem], { baseUrl: 'https://staging.example/api', spentQuota: false })).toEqual([
    "a different base path: /api, where both of the spec's addresses end with /v1 (§1, §9)",
    "validation errors in another format: 422 answered as application/problem+json (RFC 9457), not the spec's Error body (§7)",
  ])
  expect(
    diagnose([{ ...problem, headers: { ...problem.headers, 'content-type': 'application/json' } }], {
      baseUrl: 'https://staging.example/v1',
      spentQuota: false,
    }),
  ).toEqual([])
})
