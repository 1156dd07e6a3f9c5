import type { SandboxRequest } from './sandbox-request.js'
import { WireHeaders } from './wire-headers.js'

// Brands the adapter's requests with a symbol, as jsdom's Request claims every subclass under `instanceof`.
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

/** Holds what the handlers read of a node:http request, without undici's (BENCHMARKS.md, "Closer to the wire"). */
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

/** Tells whether the node:http adapter made this request. */
export function isAdapterRequest(request: SandboxRequest | undefined): boolean {
  return (
    request !== undefined && (request as Partial<Record<typeof MADE_BY_ADAPTER, boolean>>)[MADE_BY_ADAPTER] === true
  )
}
