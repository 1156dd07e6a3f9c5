import { createMasker } from '../../core/auth/create-masker.js'
import { BODY_LIMIT, type ExchangeBodies } from '../../core/request-log/create-request-log.js'

/** A body of a proxied exchange as the log may show it: its type, and its text or its size. */
export interface HeldBody {
  contentType: string | undefined
  /** Its text, decoded, when the proxy has it whole and within what the log keeps. */
  text: string | undefined
  /** Its length in bytes when left out for its size; undefined when left out for another reason. */
  size?: number | undefined
}

// What a HAR shows as text: JSON (`application/json`, any `+json`) and `text/*`.
const TEXTUAL = /^\s*(?:application\/json|[\w.-]+\/[\w.+-]+\+json|text\/[\w.+-]+)\s*(?:;|$)/i

/** Whether a body of this type is shown as text, so worth keeping: JSON or text. */
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

/** A body's text, its size when it is too long to keep, or undefined when it is not kept. */
function logged({ contentType, text, size }: HeldBody): string | number | undefined {
  if (!isTextual(contentType)) return undefined
  if (text !== undefined) return text === '' ? undefined : text
  return size
}
