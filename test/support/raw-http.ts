import { createServer, type RequestListener } from 'node:http'
import { type AddressInfo, connect } from 'node:net'

/**
 * A raw node:http server of the test's own (an upstream of fixed behaviour) on a free loopback
 * port: its origin, and a close that cuts its open connections.
 */
export async function listenOnLoopback(listener: RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One HTTP/1.1 answer read off a raw socket. */
export interface RawResponse {
  status: number
  headers: Headers
  body: Buffer
}

export interface RawExchangeOptions {
  /** Local address to connect from (any of 127.0.0.0/8 on loopback): one rate-limit bucket per address. */
  localAddress?: string
  /** Give up after this long without a complete answer (the exchange then resolves `undefined`). */
  timeoutMs?: number
  /** Set for HEAD: the answer has headers only. */
  head?: boolean
  /** Half-close after sending, so the server sees the end of a truncated request at once. */
  halfClose?: boolean
}

/**
 * Sends `bytes` as they are on a fresh TCP connection and reads one response, for requests fetch
 * cannot make: invalid UTF-8 in the target, duplicate or odd headers, bare CR/LF, chunked framing,
 * unknown methods. Resolves `undefined` when the server closes without a complete answer.
 *
 * @example
 * const answer = await rawExchange(url, 'GET /v1/pets/%FF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
 */
export function rawExchange(
  url: string,
  bytes: string | Buffer,
  options: RawExchangeOptions = {},
): Promise<RawResponse | undefined> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    })
    let received = Buffer.alloc(0)
    let settled = false
    const settle = (answer: RawResponse | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(answer)
    }
    const timer = setTimeout(
      () => settle(parseResponse(received, options.head === true, true)),
      options.timeoutMs ?? 10_000,
    )
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const answer = parseResponse(received, options.head === true, false)
      if (answer) settle(answer)
    })
    // The server may answer and close before it read everything we send (413, 431): not an error.
    socket.on('error', () => settle(parseResponse(received, options.head === true, true)))
    socket.on('close', () => settle(parseResponse(received, options.head === true, true)))
    socket.write(bytes)
    if (options.halfClose) socket.end()
  })
}

/** Parses one complete response from the start of `data`, or returns undefined if it is incomplete. */
export function parseResponse(data: Buffer, head: boolean, closed: boolean): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n')
  if (end === -1) return undefined
  const lines = data.subarray(0, end).toString('latin1').split('\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')
  if (!status) return undefined
  const headers = new Headers()
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  const rest = data.subarray(end + 4)
  const code = Number(status[1])
  if (head || code === 204 || code === 304) return { status: code, headers, body: Buffer.alloc(0) }
  const length = headers.get('content-length')
  if (length !== null)
    return rest.byteLength >= Number(length)
      ? { status: code, headers, body: rest.subarray(0, Number(length)) }
      : undefined
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
    const body = decodeChunked(rest)
    return body ? { status: code, headers, body } : undefined
  }
  return closed ? { status: code, headers, body: rest } : undefined
}

function decodeChunked(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = []
  let offset = 0
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset)
    if (lineEnd === -1) return undefined
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16)
    if (size === 0) return Buffer.concat(parts)
    if (data.byteLength < lineEnd + 2 + size + 2) return undefined
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
}

/** A raw answer as a fetch Response, for `contractViolations`. */
export function toFetchResponse(answer: RawResponse): Response {
  return new Response(answer.body.byteLength === 0 ? null : new Uint8Array(answer.body), {
    status: answer.status,
    headers: answer.headers,
  })
}

export interface RawRequestParts {
  method?: string
  /** The request target exactly as sent (may hold bytes fetch would encode or refuse). */
  target: string | Buffer
  /** Header lines in order; duplicates allowed. A `Host` header is added unless `host: false`. */
  headers?: Array<[string, string | Buffer]>
  body?: string | Buffer
  /** Add `Content-Length` for the body (default: when there is a body and no Transfer-Encoding). */
  contentLength?: boolean
  host?: boolean
  version?: string
}

/** Builds request bytes from parts, with `Connection: close` so the server ends the exchange. */
export function rawRequest(parts: RawRequestParts): Buffer {
  const headers = [...(parts.headers ?? [])]
  if (parts.host !== false) headers.unshift(['Host', '127.0.0.1'])
  const body = parts.body === undefined ? undefined : Buffer.from(parts.body)
  const chunked = headers.some(([name]) => name.toLowerCase() === 'transfer-encoding')
  if (body !== undefined && (parts.contentLength ?? !chunked)) headers.push(['Content-Length', String(body.byteLength)])
  headers.push(['Connection', 'close'])
  return Buffer.concat([
    Buffer.from(`${parts.method ?? 'GET'} `),
    Buffer.from(parts.target),
    Buffer.from(` ${parts.version ?? 'HTTP/1.1'}\r\n`),
    ...headers.flatMap(([name, value]) => [Buffer.from(`${name}: `), Buffer.from(value), Buffer.from('\r\n')]),
    Buffer.from('\r\n'),
    body ?? Buffer.alloc(0),
  ])
}

/** Whether a connection to `url`'s port is refused: nothing listens there any more. */
export function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}
