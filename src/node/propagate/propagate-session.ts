import { AsyncLocalStorage } from 'node:async_hooks'
import http from 'node:http'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import { requestedSession, SESSION_HEADER } from '../../core/sessions/session-name.js'

export interface PropagateOptions {
  /** The sandbox's origin, or a URL on it: only requests there carry the session. */
  origin: string
}

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean
type Requester = (...args: unknown[]) => http.ClientRequest

/**
 * Carries the session of the request being handled (D43) onto every request to `origin` made while handling it.
 *
 * @example
 * const stop = propagateSession({ origin: process.env.PETSTORE_SANDBOX_URL })
 */
export function propagateSession({ origin }: PropagateOptions): () => void {
  let sandboxOrigin: string
  try {
    sandboxOrigin = new URL(origin).origin
  } catch {
    throw new Error(
      `petstore-sandbox/propagate: ${JSON.stringify(origin)} is not a URL; ` +
        "give the sandbox's, as PETSTORE_SANDBOX_URL holds it",
    )
  }
  const inbound = new AsyncLocalStorage<string | undefined>()
  const undo: Array<() => void> = []
  const replace = <T extends object, K extends keyof T>(owner: T, key: K, make: (original: T[K]) => T[K]) => {
    const original = owner[key]
    owner[key] = make(original)
    undo.push(() => {
      owner[key] = original
    })
  }

  // Inbound: handlers run in the session their request names.
  for (const Server of [http.Server, https.Server]) {
    replace(
      Server.prototype as unknown as { emit: Emit },
      'emit',
      (emit) =>
        function (this: unknown, event, ...args) {
          if (event !== 'request') return emit.call(this, event, ...args)
          const incoming = args[0] as http.IncomingMessage
          const named = requestedSession((name) => {
            const value = incoming.headers[name]
            return Array.isArray(value) ? value.join(', ') : value
          })
          return inbound.run(named?.name, () => emit.call(this, event, ...args))
        },
    )
  }

  // Outbound through fetch.
  const fetchOwner = globalThis as { fetch: typeof fetch }
  replace(
    fetchOwner,
    'fetch',
    (original) =>
      function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
        const session = inbound.getStore()
        if (session === undefined) return original(input, init)
        const url = input instanceof Request ? input.url : String(input)
        if (!sameOrigin(url, sandboxOrigin)) return original(input, init)
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
        if (headers.has(SESSION_HEADER)) return original(input, init)
        headers.set(SESSION_HEADER, session)
        return original(input, { ...init, headers })
      },
  )

  // Outbound through node:http and node:https, before the head is written.
  const carry = (request: http.ClientRequest) => {
    const session = inbound.getStore()
    if (session === undefined || request.headersSent || request.hasHeader(SESSION_HEADER)) return request
    const host = request.getHeader('host')
    if (typeof host !== 'string' || `${request.protocol}//${host}`.toLowerCase() !== sandboxOrigin) return request
    try {
      request.setHeader(SESSION_HEADER, session)
    } catch {
      // Raw-array headers are written at once: the request goes as it is.
    }
    return request
  }
  for (const module of [http, https]) {
    const owner = module as unknown as Record<'request' | 'get', Requester>
    replace(
      owner,
      'request',
      (request) =>
        (...args) =>
          carry(request(...args)),
    )
    // `get` calls the module's own request, not the replaced one.
    replace(
      owner,
      'get',
      (get) =>
        (...args) =>
          carry(get(...args)),
    )
  }
  syncBuiltinESMExports()

  return () => {
    for (const step of undo.reverse()) step()
    undo.length = 0
    syncBuiltinESMExports()
  }
}

function sameOrigin(url: string, origin: string): boolean {
  if (!url.startsWith(origin)) return false
  try {
    return new URL(url).origin === origin
  } catch {
    return false
  }
}
