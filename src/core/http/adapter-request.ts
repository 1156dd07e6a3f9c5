import type { RequestHeaders, SandboxRequest } from './sandbox-request.js'

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
 * The headers of an `AdapterRequest`, read from the raw pairs node:http parsed (already valid:
 * llhttp refuses what `Headers` would), gathered into a map on first use. Values of a repeated
 * name are joined with `, `, as `Headers.get` joins them.
 */
class AdapterHeaders implements RequestHeaders {
  #raw: readonly string[]
  #set: readonly [string, string]
  #map: Map<string, string> | undefined

  constructor(raw: readonly string[], set: readonly [string, string]) {
    this.#raw = raw
    this.#set = set
  }

  #values(): Map<string, string> {
    if (this.#map !== undefined) return this.#map
    const map = new Map<string, string>()
    const raw = this.#raw
    const [setName, setValue] = this.#set
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase()
      if (name === setName) continue
      const before = map.get(name)
      map.set(name, before === undefined ? raw[i + 1]! : `${before}, ${raw[i + 1]!}`)
    }
    map.set(setName, setValue)
    this.#map = map
    return map
  }

  get(name: string): string | null {
    return this.#values().get(name.toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.#values().has(name.toLowerCase())
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this) callback(value, name)
  }

  *[Symbol.iterator](): Iterator<[string, string]> {
    const map = this.#values()
    for (const name of [...map.keys()].sort()) {
      if (name !== 'set-cookie') {
        yield [name, map.get(name)!]
        continue
      }
      // As `Headers` iterates them: each Set-Cookie on its own.
      const raw = this.#raw
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) yield [name, raw[i + 1]!]
    }
  }
}

/**
 * A request made by the sandbox's node:http adapter: what the handlers read of it
 * (`SandboxRequest`), taken from the head node parsed, with none of undici's `Request`, `Headers`
 * or URL parsing paid for it (BENCHMARKS.md, "Closer to the wire"). Answers to it may leave their
 * JSON body out of the Response (`toResponse`): the adapter writes the JSON text itself. A plain
 * msw handler gets `fetchRequest()`, a fetch Request that says the same. Requests made anywhere
 * else (msw's interceptors in-process, the service worker in a browser) are plain Requests and
 * get ordinary Responses.
 *
 * @example
 * isAdapterRequest(new AdapterRequest({ method: 'GET', url: new URL('http://127.0.0.1:4010/v1/pets'), rawHeaders: [], set: ['x-a', '1'], body: null })) // true
 */
export class AdapterRequest implements SandboxRequest {
  readonly [MADE_BY_ADAPTER] = true
  readonly method: string
  readonly headers: AdapterHeaders
  readonly body: ReadableStream<Uint8Array> | null
  readonly parsedUrl: URL
  #fetchRequest: Request | undefined

  constructor({ method, url, rawHeaders, set, body }: AdapterRequestInit) {
    this.method = method
    this.parsedUrl = url
    this.headers = new AdapterHeaders(rawHeaders, set)
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
