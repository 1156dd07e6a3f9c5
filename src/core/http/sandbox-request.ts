/**
 * The headers of a request as the handlers read them: a fetch `Headers` is one, and so are the
 * node:http adapter's (adapter-request.ts). Names are case-insensitive; iteration gives lower-case
 * names in order with repeated ones joined, as `Headers` does.
 */
export interface RequestHeaders extends Iterable<[string, string]> {
  get(name: string): string | null
  has(name: string): boolean
  forEach(callback: (value: string, name: string) => void): void
}

/**
 * What the handlers read of a request: a fetch `Request` (in-process, in the browser) has all of
 * it, and so has the node:http adapter's `AdapterRequest`, which builds none of undici's objects
 * for it (BENCHMARKS.md, "Closer to the wire").
 */
export interface SandboxRequest {
  readonly method: string
  /** The request's URL, serialized. */
  readonly url: string
  readonly headers: RequestHeaders
  readonly body: ReadableStream<Uint8Array> | null
}
