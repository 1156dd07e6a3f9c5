import { rawRequest, type RawRequestParts } from '../support/raw-http.js'

/** The key of the corpus's keys file: enterprise, with limits no corpus run can spend. */
export const CORPUS_KEY = 'corpus-enterprise-key'

/** One bad request: bytes as sent on the wire, and the status it must get (a 4xx). */
export interface BadInputCase {
  name: string
  /** Method and target, for the contract check of the answer. */
  method: string
  target: string
  bytes: Buffer
  status: number
  /** Refused by node's parser before routing: the answer is held to the rules of no operation. */
  beforeRouting?: boolean
}

const KEY: [string, string] = ['Authorization', `Bearer ${CORPUS_KEY}`]
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json']

function make(name: string, status: number, parts: RawRequestParts): BadInputCase {
  const target = Buffer.isBuffer(parts.target) ? parts.target.toString('latin1') : parts.target
  return { name, status, method: parts.method ?? 'GET', target, bytes: rawRequest(parts) }
}

/** POST /v1/pets with the corpus key and `Content-Type: application/json` unless told otherwise. */
function post(
  name: string,
  status: number,
  body: string | Buffer | undefined,
  headers: Array<[string, string | Buffer]> = [KEY, JSON_TYPE],
  extra: Partial<RawRequestParts> = {},
) {
  return make(name, status, {
    method: 'POST',
    target: '/v1/pets',
    headers,
    ...(body === undefined ? {} : { body }),
    ...extra,
  })
}

function get(
  name: string,
  status: number,
  target: string | Buffer,
  headers: Array<[string, string | Buffer]> = [KEY],
  extra: Partial<RawRequestParts> = {},
) {
  return make(name, status, { method: 'GET', target, headers, ...extra })
}

function wire(name: string, status: number, method: string, target: string, text: string | Buffer): BadInputCase {
  return { name, status, method, target, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1') }
}

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))))
const deep = (levels: number, open: string, close: string, inner = '1') =>
  `${open.repeat(levels)}${inner}${close.repeat(levels)}`
const MiB = 1024 * 1024

/**
 * The bad-input corpus: every case gets a 4xx Error body with the rate-limit headers and changes
 * nothing (test/e2e/bad-input-corpus.test.ts). Cases found by the fuzzers are added at the end.
 */
export const BAD_INPUT_CASES: BadInputCase[] = [
  // Malformed and truncated JSON.
  post('an unterminated object', 400, '{'),
  post('an object cut after a value', 400, '{"name":"Rex","categoryId":1'),
  post('an object cut inside a string', 400, '{"name":"Re'),
  post('a trailing comma', 400, '{"name":"Rex","categoryId":1,}'),
  post('unquoted keys', 400, '{name:"Rex",categoryId:1}'),
  post('single-quoted strings', 400, "{'name':'Rex','categoryId':1}"),
  post('a comment', 400, '{"name":"Rex","categoryId":1 /* pet */}'),
  post('two concatenated objects', 400, '{"name":"Rex","categoryId":1}{"name":"Max","categoryId":1}'),
  post('an empty body', 400, ''),
  post('a whitespace-only body', 400, '   \n\t '),
  post('null', 400, 'null'),
  post('an array', 400, '[{"name":"Rex","categoryId":1}]'),
  post('a string', 400, '"Rex"'),
  post('a number', 400, '42'),
  post('true', 400, 'true'),
  post('a raw control character in a string', 400, '{"name":"Re\u0001x","categoryId":1}'),
  post('an invalid escape', 400, '{"name":"Re\\qx","categoryId":1}'),
  post('a lone surrogate escape with an invalid name', 400, '{"name":"\\ud800","categoryId":"x"}'),
  // Encodings.
  post('a UTF-8 byte order mark', 400, bytes([0xef, 0xbb, 0xbf], '{"name":"Rex","categoryId":1}')),
  post('an invalid UTF-8 byte', 400, bytes('{"name":"R', [0xff], 'x","categoryId":1}')),
  post('an overlong UTF-8 sequence', 400, bytes('{"name":"R', [0xc0, 0xaf], 'x","categoryId":1}')),
  post('a UTF-8-encoded surrogate', 400, bytes('{"name":"R', [0xed, 0xa0, 0x80], 'x","categoryId":1}')),
  post('a truncated UTF-8 sequence', 400, bytes('{"name":"R', [0xe2, 0x82], '","categoryId":1}')),
  post('a UTF-16LE body', 400, Buffer.from('{"name":"Rex","categoryId":1}', 'utf16le')),
  post(
    'a UTF-16 body with its byte order mark',
    400,
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name":"Rex","categoryId":1}', 'utf16le')]),
  ),
  post('a NUL byte between tokens', 400, bytes('{"name":"Rex","categoryId":1}', [0x00])),
  // Duplicate keys: whichever value would win, the body is ambiguous.
  post('a duplicate name, valid last', 400, '{"name":"","name":"Rex","categoryId":1}'),
  post('a duplicate name, valid first', 400, '{"name":"Rex","name":"","categoryId":1}'),
  post('a duplicate key spelled with an escape', 400, '{"name":"Rex","na\\u006de":"Max","categoryId":1}'),
  post('a duplicate status', 400, '{"name":"Rex","categoryId":1,"status":"sold","status":"available"}'),
  // Deep nesting.
  post('100000 nested arrays', 400, deep(100_000, '[', ']')),
  post('100000 nested objects', 400, deep(100_000, '{"a":', '}')),
  post(
    '100000 nested arrays in an extra field next to an empty name',
    400,
    `{"name":"","categoryId":1,"extra":${deep(100_000, '[', ']')}}`,
  ),
  post('100000 nested arrays as the name', 400, `{"name":${deep(100_000, '[', ']')},"categoryId":1}`),
  post('100000 nested objects as the categoryId', 400, `{"name":"Rex","categoryId":${deep(100_000, '{"a":', '}')}}`),
  post('100000 unclosed arrays', 400, '['.repeat(100_000)),
  // Prototype keys.
  post('__proto__ holding the name', 400, '{"__proto__":{"name":"Rex"},"categoryId":1}'),
  post('constructor.prototype holding the name', 400, '{"constructor":{"prototype":{"name":"Rex"}},"categoryId":1}'),
  post('prototype holding the name', 400, '{"prototype":{"name":"Rex"},"categoryId":1}'),
  post('__proto__ with an invalid categoryId', 400, '{"name":"Rex","__proto__":{"status":"sold"},"categoryId":"x"}'),
  post('__proto__ as a string name', 400, '{"name":"__proto__","categoryId":0}'),
  // Numbers and NaN-like strings.
  post('a categoryId of 2^53 + 1', 400, '{"name":"Rex","categoryId":9007199254740993}'),
  post('a categoryId of 2^63', 400, '{"name":"Rex","categoryId":9223372036854775808}'),
  post('a categoryId of 2^64 + 1', 400, '{"name":"Rex","categoryId":18446744073709551617}'),
  post('a categoryId of 1e400', 400, '{"name":"Rex","categoryId":1e400}'),
  post('a categoryId of -1e400', 400, '{"name":"Rex","categoryId":-1e400}'),
  post('a categoryId of 0', 400, '{"name":"Rex","categoryId":0}'),
  post('a categoryId of -0', 400, '{"name":"Rex","categoryId":-0}'),
  post('a fractional categoryId', 400, '{"name":"Rex","categoryId":1.5}'),
  post('a categoryId of 5e-324', 400, '{"name":"Rex","categoryId":5e-324}'),
  post('a categoryId string', 400, '{"name":"Rex","categoryId":"1"}'),
  post('a categoryId "NaN"', 400, '{"name":"Rex","categoryId":"NaN"}'),
  post('a bare NaN', 400, '{"name":"Rex","categoryId":NaN}'),
  post('a bare Infinity', 400, '{"name":"Rex","categoryId":Infinity}'),
  post('a hexadecimal number', 400, '{"name":"Rex","categoryId":0x10}'),
  post('a leading plus', 400, '{"name":"Rex","categoryId":+1}'),
  post('a leading zero', 400, '{"name":"Rex","categoryId":01}'),
  post('a name that is a number', 400, '{"name":12345,"categoryId":1}'),
  post('a name "NaN" with a null categoryId', 400, '{"name":"NaN","categoryId":null}'),
  post('a status "Infinity"', 400, '{"name":"Rex","categoryId":1,"status":"Infinity"}'),
  post('a status in capitals', 400, '{"name":"Rex","categoryId":1,"status":"SOLD"}'),
  // Huge and empty strings.
  post('a name of 201 characters', 400, JSON.stringify({ name: 'x'.repeat(201), categoryId: 1 })),
  post('a name of 1000000 characters', 400, JSON.stringify({ name: 'x'.repeat(1_000_000), categoryId: 1 })),
  post('a blank name', 400, '{"name":"   ","categoryId":1}'),
  post('an empty name', 400, '{"name":"","categoryId":1}'),
  post(
    'a huge extra string next to an invalid name',
    400,
    JSON.stringify({ name: '', categoryId: 1, note: 'y'.repeat(900_000) }),
  ),
  // Bodies over 1 MiB.
  post(
    'a body of 1 MiB + 1 bytes',
    413,
    JSON.stringify({ name: 'Rex', categoryId: 1, pad: 'p'.repeat(MiB) }).slice(0, MiB + 1),
  ),
  post('a body of 2 MiB', 413, JSON.stringify({ name: 'Rex', categoryId: 1, pad: 'p'.repeat(2 * MiB) })),
  // Content-Length far beyond what is sent: refused from the header, before any body arrives.
  post(
    'a declared 100 MiB body',
    413,
    '{"name":"Rex","categoryId":1',
    [KEY, JSON_TYPE, ['Content-Length', String(100 * MiB)]],
    { contentLength: false },
  ),
  post(
    'a chunked body over 1 MiB',
    413,
    `100000\r\n${'a'.repeat(0x100000)}\r\n100\r\n${'a'.repeat(0x100)}\r\n0\r\n\r\n`,
    [KEY, JSON_TYPE, ['Transfer-Encoding', 'chunked']],
  ),
  // Content types.
  post('no Content-Type', 415, '{"name":"Rex","categoryId":1}', [KEY]),
  post('text/plain', 415, '{"name":"Rex","categoryId":1}', [KEY, ['Content-Type', 'text/plain']]),
  post('a form body', 415, 'name=Rex', [KEY, ['Content-Type', 'application/x-www-form-urlencoded']]),
  post('multipart', 415, '--b\r\n\r\nRex\r\n--b--', [KEY, ['Content-Type', 'multipart/form-data; boundary=b']]),
  post('application/jsonx', 415, '{"name":"Rex","categoryId":1}', [KEY, ['Content-Type', 'application/jsonx']]),
  post('application/json-patch+json', 415, '{"name":"Rex","categoryId":1}', [
    KEY,
    ['Content-Type', 'application/json-patch+json'],
  ]),
  post('an empty Content-Type', 415, '{"name":"Rex","categoryId":1}', [KEY, ['Content-Type', '']]),
  post('two Content-Types', 415, '{"name":"Rex","categoryId":1}', [KEY, JSON_TYPE, ['Content-Type', 'text/plain']]),
  post('a Content-Type of json with no body', 400, undefined, [KEY, JSON_TYPE]),
  // Chunked and odd framing.
  post('a chunked body with invalid JSON', 400, '5\r\n{"nam\r\n0\r\n\r\n', [
    KEY,
    JSON_TYPE,
    ['Transfer-Encoding', 'chunked'],
  ]),
  post('a chunked empty body', 400, '0\r\n\r\n', [KEY, JSON_TYPE, ['Transfer-Encoding', 'chunked']]),
  post('a chunk size that is not hexadecimal', 400, 'zz\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n', [
    KEY,
    JSON_TYPE,
    ['Transfer-Encoding', 'chunked'],
  ]),
  post('a chunk longer than its size', 400, '2\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n', [
    KEY,
    JSON_TYPE,
    ['Transfer-Encoding', 'chunked'],
  ]),
  post(
    'Content-Length and Transfer-Encoding together',
    400,
    '1d\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n',
    [KEY, JSON_TYPE, ['Transfer-Encoding', 'chunked'], ['Content-Length', '29']],
    { contentLength: false },
  ),
  post(
    'two different Content-Lengths',
    400,
    '{"name":"Rex","categoryId":1}',
    [KEY, JSON_TYPE, ['Content-Length', '29'], ['Content-Length', '5']],
    {
      contentLength: false,
    },
  ),
  post('a negative Content-Length', 400, '{"name":"Rex","categoryId":1}', [KEY, JSON_TYPE, ['Content-Length', '-1']], {
    contentLength: false,
  }),
  post(
    'a non-numeric Content-Length',
    400,
    '{"name":"Rex","categoryId":1}',
    [KEY, JSON_TYPE, ['Content-Length', 'abc']],
    { contentLength: false },
  ),
  post(
    'a Transfer-Encoding of gzip',
    400,
    '{"name":"Rex","categoryId":1}',
    [KEY, JSON_TYPE, ['Transfer-Encoding', 'gzip']],
    { contentLength: false },
  ),
  post(
    'a Transfer-Encoding of chunked then gzip',
    400,
    '{"name":"Rex","categoryId":1}',
    [KEY, JSON_TYPE, ['Transfer-Encoding', 'chunked, gzip']],
    {
      contentLength: false,
    },
  ),
  wire('bare LF line endings', 400, 'GET', '/v1/pets', 'GET /v1/pets HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n'),
  wire(
    'a bare CR in a header value',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Odd: a\rb\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'a folded header line',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer\r\n ${CORPUS_KEY}\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'a header without a colon',
    400,
    'GET',
    '/v1/pets',
    'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\nConnection: close\r\n\r\n',
  ),
  wire(
    'a space before the colon',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization : Bearer ${CORPUS_KEY}\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'a NUL in a header value',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer corpus\u0000key\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'no Host header',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${CORPUS_KEY}\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'two Host headers',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\nAuthorization: Bearer ${CORPUS_KEY}\r\nConnection: close\r\n\r\n`,
  ),
  wire('an HTTP/2 preface', 400, 'PRI', '*', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  wire(
    'HTTP version 9.9',
    400,
    'GET',
    '/v1/pets',
    'GET /v1/pets HTTP/9.9\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  ),
  wire('no HTTP version (HTTP/0.9) without a key', 401, 'GET', '/v1/pets', 'GET /v1/pets\r\nHost: 127.0.0.1\r\n\r\n'),
  wire(
    'a lower-case method',
    400,
    'get',
    '/v1/pets',
    'get /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  ),
  wire(
    'an unknown method',
    400,
    'FOO',
    '/v1/pets',
    'FOO /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  ),
  wire(
    'a garbage request line',
    400,
    'GET',
    '/',
    '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n',
  ),
  wire(
    'a raw space in the target',
    400,
    'GET',
    '/v1/pets',
    `GET /v1/pets/ 1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
  ),
  wire(
    'a CONNECT request',
    400,
    'CONNECT',
    '127.0.0.1:443',
    'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n',
  ),
  get('an asterisk target', 404, '*'),
  get('an absolute-form target with no key', 401, 'http://evil.example/v1/pets', []),
  get('a WebSocket upgrade without a key', 401, '/v1/pets', [
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
  ]),
  get('a header name with non-ASCII bytes', 400, '/v1/pets', [
    KEY,
    [Buffer.from([0x58, 0xff]).toString('latin1'), 'x'],
  ]),
  // Headers that are too big for node's parser, before our code runs.
  get('one header of 20 KiB', 431, '/v1/pets', [KEY, ['X-Big', 'b'.repeat(20 * 1024)]]),
  get('2000 small headers', 431, '/v1/pets', [
    KEY,
    ...Array.from({ length: 2000 }, (_, i): [string, string] => [`X-H${i}`, 'v']),
  ]),
  get('a query string of 20 KiB', 431, `/v1/pets?status=${'s'.repeat(20 * 1024)}`),
  // Very long URLs and query strings within the limit.
  get('a path of 12 KiB', 404, `/v1/${'p'.repeat(12 * 1024)}`),
  get('a petId of 12 KiB of digits', 400, `/v1/pets/${'9'.repeat(12 * 1024)}`),
  get('a status value of 8 KiB', 400, `/v1/pets?status=${'s'.repeat(8 * 1024)}`),
  get('4000 query parameters', 400, `/v1/pets?${Array.from({ length: 2000 }, () => 'limit=1').join('&')}`),
  // Query values.
  get('limit 0', 400, '/v1/pets?limit=0'),
  get('limit 101', 400, '/v1/pets?limit=101'),
  get('a negative limit', 400, '/v1/pets?limit=-1'),
  get('a fractional limit', 400, '/v1/pets?limit=1.5'),
  get('a limit in words', 400, '/v1/pets?limit=ten'),
  get('an empty limit', 400, '/v1/pets?limit='),
  get('a limit of 2^64', 400, '/v1/pets?limit=18446744073709551616'),
  get('a limit with a NUL', 400, '/v1/pets?limit=1%00'),
  get('two limits', 400, '/v1/pets?limit=1&limit=2'),
  get('an unknown status', 400, '/v1/pets?status=lost'),
  get('an empty status', 400, '/v1/pets?status='),
  get('a status with invalid UTF-8', 400, '/v1/pets?status=%FF'),
  get('a status with a raw high byte', 400, Buffer.from('/v1/pets?status=sold\xff', 'latin1')),
  get('a limit array next to limit 0', 400, '/v1/pets?limit[]=1&limit=0'),
  // Paths and percent-encoding tricks.
  get('a lone percent sign', 400, '/v1/pets/%'),
  get('a bad percent escape', 400, '/v1/pets/%zz'),
  get('an encoded NUL', 400, '/v1/pets/%00'),
  get('an encoded slash', 400, '/v1/pets/1%2F2'),
  get('an encoded invalid UTF-8 byte', 400, '/v1/pets/%FF'),
  get('an encoded overlong dot', 400, '/v1/pets/%C0%AE'),
  get('an encoded truncated sequence', 400, '/v1/pets/%E2%82'),
  { ...get('a raw high byte in the path', 400, Buffer.from('/v1/pets/1\xff', 'latin1')), beforeRouting: true },
  { ...get('raw UTF-8 in the path', 400, Buffer.from('/v1/pets/\u00e9', 'utf8')), beforeRouting: true },
  get('an encoded space after the id', 400, '/v1/pets/1%20'),
  get('encoded dot segments out of the API', 404, '/v1/pets/%2e%2e/%2e%2e/%2e%2e/etc/passwd'),
  get('dot segments with encoded slashes', 404, '/v1/..%2f..%2fetc%2fpasswd'),
  get('a double slash', 404, '/v1//pets'),
  get('a trailing slash', 404, '/v1/pets/'),
  get('a matrix parameter', 404, '/v1/pets;jsessionid=1'),
  get('a path in capitals', 404, '/V1/PETS'),
  get('an encoded backslash path', 404, '/v1%5Cpets%5C1'),
  // Any int64 that names no pet is a 404 (D37); what is no int64 a 400.
  get('petId -1', 404, '/v1/pets/-1'),
  get('petId 0', 404, '/v1/pets/0'),
  get('petId 1.0', 400, '/v1/pets/1.0'),
  get('petId 1e3', 400, '/v1/pets/1e3'),
  get('petId 0x10', 400, '/v1/pets/0x10'),
  get('petId 2^53', 404, '/v1/pets/9007199254740992'),
  get('petId 2^53+1', 404, '/v1/pets/9007199254740993'),
  get('petId 2^63-1', 404, '/v1/pets/9223372036854775807'),
  get('petId -2^63', 404, '/v1/pets/-9223372036854775808'),
  get('petId 2^63', 400, '/v1/pets/9223372036854775808'),
  get('petId -2^63-1', 400, '/v1/pets/-9223372036854775809'),
  get('petId NaN', 400, '/v1/pets/NaN'),
  get('petId Infinity', 400, '/v1/pets/Infinity'),
  get('a petId with a leading plus', 400, '/v1/pets/+1'),
  get('an unknown petId', 404, '/v1/pets/999999'),
  // Unknown and unsupported methods.
  make('PUT on the collection', 405, {
    method: 'PUT',
    target: '/v1/pets',
    headers: [KEY, JSON_TYPE],
    body: '{"name":"Rex","categoryId":1}',
  }),
  make('PATCH on a pet', 405, {
    method: 'PATCH',
    target: '/v1/pets/1',
    headers: [KEY, JSON_TYPE],
    body: '{"name":"Rex","categoryId":1}',
  }),
  make('DELETE on a pet', 405, { method: 'DELETE', target: '/v1/pets/1', headers: [KEY] }),
  make('POST on a pet', 405, {
    method: 'POST',
    target: '/v1/pets/1',
    headers: [KEY, JSON_TYPE],
    body: '{"name":"Rex","categoryId":1}',
  }),
  make('TRACE', 400, { method: 'TRACE', target: '/v1/pets', headers: [KEY] }),
  make('PROPFIND', 405, { method: 'PROPFIND', target: '/v1/pets', headers: [KEY] }),
  make('PURGE', 405, { method: 'PURGE', target: '/v1/pets', headers: [KEY] }),
  make('MKCOL on an unknown path', 404, { method: 'MKCOL', target: '/v1/kennels', headers: [KEY] }),
  // Authorization variants.
  get('no Authorization', 401, '/v1/pets', []),
  get('Bearer without a token', 401, '/v1/pets', [['Authorization', 'Bearer']]),
  get('Bearer and a space', 401, '/v1/pets', [['Authorization', 'Bearer ']]),
  get('Basic credentials', 401, '/v1/pets', [['Authorization', 'Basic dXNlcjpwYXNz']]),
  get('the key without a scheme', 401, '/v1/pets', [['Authorization', CORPUS_KEY]]),
  get('the Token scheme', 401, '/v1/pets', [['Authorization', `Token ${CORPUS_KEY}`]]),
  get('the key and trailing garbage', 401, '/v1/pets', [['Authorization', `Bearer ${CORPUS_KEY} extra`]]),
  get('the key in capitals', 401, '/v1/pets', [['Authorization', `Bearer ${CORPUS_KEY.toUpperCase()}`]]),
  get('a prefix of the key', 401, '/v1/pets', [['Authorization', `Bearer ${CORPUS_KEY.slice(0, -1)}`]]),
  get('the key and one more character', 401, '/v1/pets', [['Authorization', `Bearer ${CORPUS_KEY}x`]]),
  get('the key in quotes', 401, '/v1/pets', [['Authorization', `Bearer "${CORPUS_KEY}"`]]),
  get('a tab after Bearer', 401, '/v1/pets', [['Authorization', `Bearer\t${CORPUS_KEY}`]]),
  get('a token of 8 KiB', 401, '/v1/pets', [['Authorization', `Bearer ${'k'.repeat(8 * 1024)}`]]),
  get('a token in UTF-8', 401, '/v1/pets', [['Authorization', Buffer.from('Bearer cl\u00e9', 'utf8')]]),
  get('two Authorization headers', 401, '/v1/pets', [KEY, ['Authorization', 'Bearer other-key']]),
  get('the key in the query', 401, `/v1/pets?api_key=${CORPUS_KEY}`, []),
  get('the key in X-API-Key', 401, '/v1/pets', [['X-API-Key', CORPUS_KEY]]),
  get('a forged client address without a key', 401, '/v1/pets', [['X-Sandbox-Client-Address', '10.9.8.7']]),
  post('a create without a key', 401, '{"name":"Rex","categoryId":1}', [JSON_TYPE]),
  post('a create with an unknown key', 401, '{"name":"Rex","categoryId":1}', [
    ['Authorization', 'Bearer nobody'],
    JSON_TYPE,
  ]),
  // Found by the fuzzers (test/in-process/fuzz-requests.test.ts, test/e2e/fuzz-http.test.ts), as shrunk.
  {
    ...get('a raw space inside the query of getPet (fuzz seed 20261122)', 400, '/v1/pets/3?limit= 1'),
    beforeRouting: true,
  },
  wire(
    'a NUL before the method of a HEAD (fuzz seed 20261122)',
    400,
    'HEAD',
    '/',
    `\u0000HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${CORPUS_KEY}\r\nConnection: close\r\n\r\n`,
  ),
  // Found by a red-team pass; test/e2e/red-team.test.ts checks their messages.
  post('an Expect the server does not know', 417, '{"name":"Rex","categoryId":1}', [
    KEY,
    JSON_TYPE,
    ['Expect', 'nope'],
  ]),
  get('an Expect on a GET', 417, '/v1/pets', [KEY, ['Expect', '200-ok']]),
  post(
    'a Transfer-Encoding of gzip then chunked, read as plain chunked before',
    400,
    '1d\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n',
    [KEY, JSON_TYPE, ['Transfer-Encoding', 'gzip, chunked']],
  ),
  post('a Transfer-Encoding of identity then chunked', 400, '1d\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n', [
    KEY,
    JSON_TYPE,
    ['Transfer-Encoding', 'identity, chunked'],
  ]),
  post('a create at //v1/pets, a path and no other host', 404, '{"name":"Rex","categoryId":1}', [KEY, JSON_TYPE], {
    target: '//v1/pets',
  }),
  get('a list at //v1/pets', 404, '//v1/pets'),
  get('a list at ///v1/pets', 404, '///v1/pets'),
]
