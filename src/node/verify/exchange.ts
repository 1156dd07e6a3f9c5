/** One request and its answer, as the promises judge it. */
export interface Exchange {
  method: string
  /** The full URL requested. */
  url: string
  /** The path below the API base, e.g. `/pets/3`. */
  path: string
  query: URLSearchParams
  /** Which kind of credential was sent: the user's key, a deliberately wrong one, or none. */
  credential: 'key' | 'wrong-key' | 'none'
  /** The JSON body sent, if any (text when it was sent as raw text). */
  requestBody?: unknown
  status: number
  /** Response headers, names in lower case. */
  headers: Record<string, string>
  bodyText: string
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  body: unknown
  /** When the answer arrived, epoch ms by the checker's clock. */
  receivedAt: number
}
