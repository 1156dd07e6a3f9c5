/** Reads headers as `Headers` and `WireHeaders` both do. */
export interface RequestHeaders extends Iterable<[string, string]> {
  get(name: string): string | null
  has(name: string): boolean
  forEach(callback: (value: string, name: string) => void): void
}

/** Holds what handlers read of a `Request` or an `AdapterRequest`. */
export interface SandboxRequest {
  readonly method: string
  readonly url: string
  readonly headers: RequestHeaders
  readonly body: ReadableStream<Uint8Array> | null
}
