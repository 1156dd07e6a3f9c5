import type { SandboxRequest } from './sandbox-request.js'
import { WireHeaders } from './wire-headers.js'

// Brands with a symbol, as jsdom's Request claims every subclass under `instanceof`.
const MADE_BY_ADAPTER = Symbol('petstore-sandbox.adapterRequest')

/** Marks a Request the adapter made, for handlers other than a ClaimingHandler. */
class AdapterFetchRequest extends Request {
  readonly [MADE_BY_ADAPTER] = true
}

export interface AdapterRequestInit {
  method: string
  /** Holds the URL the server parsed (unservable-request.ts). */
  url: URL
  rawHeaders: readonly string[]
  /** Replaces the client's header of this lower-case name. */
  set: readonly [string, string]
  body: ReadableStream<Uint8Array> | null
}

/** Holds what the handlers read of a node:http request (BENCHMARKS.md, "Closer to the wire"). */
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

  fetchRequest(): Request {
    this.#fetchRequest ??= new AdapterFetchRequest(this.url, {
      method: this.method,
      headers: [...this.headers],
      ...(this.body === null ? {} : { body: this.body, duplex: 'half' }),
    } as RequestInit)
    return this.#fetchRequest
  }
}

export function isAdapterRequest(request: SandboxRequest | undefined): boolean {
  return (
    request !== undefined && (request as Partial<Record<typeof MADE_BY_ADAPTER, boolean>>)[MADE_BY_ADAPTER] === true
  )
}
