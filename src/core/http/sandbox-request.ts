/** Reads a request's headers as `Headers` does; a fetch `Headers` and the adapter's `WireHeaders` both do. */
export interface RequestHeaders extends Iterable<[string, string]> {
  get(name: string): string | null
  has(name: string): boolean
  forEach(callback: (value: string, name: string) => void): void
}

/** Holds what the handlers read of a request: a fetch `Request` has it, and so has the adapter's `AdapterRequest`. */
export interface SandboxRequest {
  readonly method: string
  /** The request's URL, serialized. */
  readonly url: string
  readonly headers: RequestHeaders
  readonly body: ReadableStream<Uint8Array> | null
}
