import type { SandboxRequest } from './sandbox-request.js'
import { WireHeaders } from './wire-headers.js'

// A brand only this module can write: a host environment can replace the global Request class
// (vitest's jsdom environment does, with a Symbol.hasInstance that claims every subclass), but it
// cannot forge a property under a symbol it never sees, so `instanceof` is not used to decide.
const MADE_BY_ADAPTER = Symbol('petstore-sandbox.adapterRequest')

/** A fetch Request the node:http adapter made, for an msw handler that is no ClaimingHandler. */
class AdapterFetchRequest extends Request {
  readonly [MADE_BY_ADAPTER] = true
}

/** What the node:http adapter hands an `AdapterRequest`: the head as node parsed it, and the body. */
export interface AdapterRequestInit {
  method: string
  /** The URL, parsed once by the server (unservable-request.ts). */
  url: URL
  /** The head's header pairs as node:http gives them (`rawHeaders`). */
  rawHeaders: readonly string[]
  /** A header the adapter sets itself, whatever the client sent under its name: lower-case name and value. */
  set: readonly [string, string]
  body: ReadableStream<Uint8Array> | null
}

/**
 * Holds what the handlers read of a node:http request, read from the parsed head without building
 * undici's Request (BENCHMARKS.md, "Closer to the wire"). Answers to it leave their JSON text for
 * the adapter to write (`toResponse`); a plain msw handler gets `fetchRequest()`.
 *
 * @example
 * isAdapterRequest(new AdapterRequest({ method: 'GET', url: new URL('http://127.0.0.1:4010/v1/pets'), rawHeaders: [], set: ['x-a', '1'], body: null })) // true
 */
export class AdapterRequest implements SandboxRequest {
  readonly [MADE_BY_ADAPTER] = true
  readonly method: string
  readonly headers: WireHeaders
  readonly body: ReadableStream<Uint8Array> | null
  readonly parsedUrl: URL
  #fetchRequest: Request | undefined

  constructor({ method, url, rawHeaders, set, body }: AdapterRequestInit) {
    this.method = method
    this.parsedUrl = url
    this.headers = WireHeaders.fromRaw(rawHeaders, set)
    this.body = body
  }

  get url(): string {
    return this.parsedUrl.href
  }

  /** The same request as a fetch Request, made once, for a handler that needs one. */
  fetchRequest(): Request {
    this.#fetchRequest ??= new AdapterFetchRequest(this.url, {
      method: this.method,
      headers: [...this.headers],
      ...(this.body === null ? {} : { body: this.body, duplex: 'half' }),
    } as RequestInit)
    return this.#fetchRequest
  }
}

/**
 * Whether the node:http adapter made this request (see `AdapterRequest`).
 *
 * @example
 * isAdapterRequest(new Request('http://api.test/v1/pets')) // false
 */
export function isAdapterRequest(request: SandboxRequest | undefined): boolean {
  return (
    request !== undefined && (request as Partial<Record<typeof MADE_BY_ADAPTER, boolean>>)[MADE_BY_ADAPTER] === true
  )
}
