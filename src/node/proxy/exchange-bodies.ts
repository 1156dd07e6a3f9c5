import { createMasker } from '../../core/auth/create-masker.js'
import { BODY_LIMIT, type ExchangeBodies } from '../../core/request-log/create-request-log.js'

/** A body the proxy holds (read from the client, or written to it), with the headers that say how to read it. */
export interface HeldBody {
  bytes: Buffer
  contentType: string | undefined
  contentEncoding: string | undefined
  /** Its text, when the proxy has decoded it already (an upstream answer, for the checks). */
  decoded?: string | undefined
}

// What a HAR shows as text: JSON (`application/json`, any `+json`) and `text/*`.
const TEXTUAL = /^\s*(?:application\/json|[\w.-]+\/[\w.+-]+\+json|text\/[\w.+-]+)\s*(?:;|$)/i

/**
 * What the request log keeps of a proxied exchange's bodies, for a HAR: each body as text when it
 * is JSON or text, left out otherwise (the entry stays). One longer than the log's `BODY_LIMIT` in
 * bytes is left out with its size in bytes, without being decoded (the proxy holds up to 16 MiB).
 * A compressed body is shown only when the proxy has decoded it already: decompressing it for the
 * log alone could take far more memory than the bytes held. The HAR masks the keys in force when
 * it is read; `presented`, a key the sandbox may not know (the upstream's), is masked here.
 */
export function exchangeBodies(origin: string, request: HeldBody | undefined, response: HeldBody | undefined, presented: string | undefined): ExchangeBodies {
  const bodies: ExchangeBodies = { origin }
  const sent = request === undefined ? undefined : logged(request)
  const answered = response === undefined ? undefined : logged(response)
  // One over the limit is left out by the log: not worth a search.
  const mask = presented === undefined ? undefined : createMasker({ keys: [presented] }).text
  const masked = (text: string) => (mask === undefined || text.length > BODY_LIMIT ? text : mask(text))
  if (typeof sent === 'string') bodies.requestBody = masked(sent)
  if (typeof answered === 'string') bodies.responseBody = masked(answered)
  if (typeof sent === 'number' || typeof answered === 'number') {
    bodies.omitted = {
      ...(typeof sent === 'number' ? { request: sent } : {}),
      ...(typeof answered === 'number' ? { response: answered } : {}),
    }
  }
  return bodies
}

/** A body's text, its size when it is too long to keep, or undefined when it is not kept. */
function logged({ bytes, contentType, contentEncoding, decoded }: HeldBody): string | number | undefined {
  if (bytes.length === 0 || contentType === undefined || !TEXTUAL.test(contentType)) return undefined
  const encoding = contentEncoding?.trim().toLowerCase()
  // The log caps a decoded text by its length itself (create-request-log.ts); undecodable is ''.
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') return decoded === '' ? undefined : decoded
  if (bytes.length > BODY_LIMIT) return bytes.length
  return decoded ?? bytes.toString('utf8')
}
