import { createMasker } from '../../core/auth/create-masker.js'
import { BODY_LIMIT, type ExchangeBodies } from '../../core/request-log/create-request-log.js'

/** A proxied exchange's body as the log may show it. */
export interface HeldBody {
  contentType: string | undefined
  /** Its decoded text, when whole and within what the log keeps. */
  text: string | undefined
  /** Its length in bytes when left out for its size. */
  size?: number | undefined
}

const TEXTUAL = /^\s*(?:application\/json|[\w.-]+\/[\w.+-]+\+json|text\/[\w.+-]+)\s*(?:;|$)/i

/** Whether a HAR shows this type as text: JSON (any `+json`) or `text/*`. */
export function isTextual(contentType: string | undefined): boolean {
  return contentType !== undefined && TEXTUAL.test(contentType)
}

/** Keeps a proxied exchange's bodies for a HAR, within `BODY_LIMIT` (D38), masking a `presented` key here. */
export function exchangeBodies(
  origin: string,
  request: HeldBody | undefined,
  response: HeldBody | undefined,
  presented: string | undefined,
): ExchangeBodies {
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

/** Returns a body's text, its size when too long, or undefined. */
function logged({ contentType, text, size }: HeldBody): string | number | undefined {
  if (!isTextual(contentType)) return undefined
  if (text !== undefined) return text === '' ? undefined : text
  return size
}
