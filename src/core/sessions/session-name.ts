import type { Secrets } from '../auth/create-masker.js'
import { adminOpenapiDocument } from '../contract/admin-openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { SessionName } from '../state/shared-state.js'

export type { SessionName }

/** Names a request's session (D34); without it, the default session. */
export const SESSION_HEADER = 'x-sandbox-session'

/** The name of the session a request without `X-Sandbox-Session` is in: today's sandbox. */
export const DEFAULT_SESSION = 'default' as SessionName

// Reads the check and its message from the admin document's SessionName.
const { schemas } = adminOpenapiDocument.components as {
  schemas: Record<string, { pattern: string; description: string }>
}
const schema = schemas.SessionName!
const pattern = new RegExp(schema.pattern)
const rule = schema.description.replace(/^sandbox - /, '')

/** Says why `name` may not name a session (`SessionName`, and no secret with `secrets`, D35), never quoting it. */
export function sessionNameRefusal(name: unknown, where: string, secrets?: Secrets): string | undefined {
  if (typeof name !== 'string' || !pattern.test(name)) return `${where} must be ${rule}`
  // A session's name is shown whole wherever sessions are, and `SessionName` has no room for a masked one.
  if (secrets !== undefined && (name === secrets.adminToken || secrets.keys.includes(name)))
    return `${where} must not be an API key or the admin token`
  return undefined
}

/** Answers `name` when it may name a session; otherwise throws a ConfigError saying `sessionNameRefusal`. */
export function checkSessionName(name: unknown, where: string, secrets?: Secrets): SessionName {
  const read = readSessionName(name, where, secrets)
  if (typeof read !== 'string') throw new ConfigError(read.refusal)
  return read
}

/** Answers `name` as a `SessionName` when it may name a session; otherwise `sessionNameRefusal`'s refusal. */
export function readSessionName(name: unknown, where: string, secrets?: Secrets): SessionName | { refusal: string } {
  const refusal = sessionNameRefusal(name, where, secrets)
  return refusal === undefined ? (name as SessionName) : { refusal }
}

/** The W3C Baggage header, whose `sandbox-session` member names a session without `X-Sandbox-Session` (D43). */
export const BAGGAGE_HEADER = 'baggage'

/** The baggage member naming the session. */
export const BAGGAGE_MEMBER = 'sandbox-session'

/** The session a request names, unchecked, and where it was named, as a refusal of a bad name says it. */
export interface RequestedSession {
  readonly name: string
  readonly where: 'X-Sandbox-Session' | "baggage's sandbox-session"
}

// W3C Baggage: key is an RFC 7230 token; value is baggage-octets (percent-encoded); properties
// after ';' are ignored here. Optional whitespace around each part.
const MEMBER =
  /^[\t ]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[\t ]*=[\t ]*([\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*)[\t ]*(;.*)?$/
const PROPERTY = /^[\t ]*[!#$%&'*+.^_`|~0-9A-Za-z-]+[\t ]*(=[\t ]*[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*[\t ]*)?$/
// The W3C limit: longer headers are malformed here, so a client cannot make the sandbox read more.
const MAX_BAGGAGE_CHARS = 8192

/**
 * Reads the session a request names (D34, D43): `X-Sandbox-Session`, else baggage's `sandbox-session`; unchecked.
 *
 * @example
 * requestedSession((name) => headers.get(name))   // { name: 'worker-1', where: "baggage's sandbox-session" }
 */
export function requestedSession(header: (name: string) => string | null | undefined): RequestedSession | undefined {
  const named = header(SESSION_HEADER)
  if (named !== null && named !== undefined) return { name: named, where: 'X-Sandbox-Session' }
  const baggage = header(BAGGAGE_HEADER)
  if (baggage === null || baggage === undefined) return undefined
  const name = baggageSession(baggage)
  return name === undefined ? undefined : { name, where: "baggage's sandbox-session" }
}

/**
 * Reads baggage's `sandbox-session`, percent-decoded; two are joined by a comma, which the rule refuses.
 *
 * @example
 * baggageSession('userId=alice, sandbox-session=worker-1;ttl=5')   // 'worker-1'
 */
export function baggageSession(value: string): string | undefined {
  if (value.length > MAX_BAGGAGE_CHARS || !value.includes(BAGGAGE_MEMBER)) return undefined
  const found: string[] = []
  for (const member of value.split(',')) {
    // An empty list member (a trailing comma, two headers joined) is skipped, as list headers allow.
    if (member.trim() === '') continue
    const parts = MEMBER.exec(member)
    if (parts === null) return undefined
    const [, key, encoded, properties] = parts
    if (
      properties !== undefined &&
      !properties
        .slice(1)
        .split(';')
        .every((property) => PROPERTY.test(property))
    )
      return undefined
    if (key !== BAGGAGE_MEMBER) continue
    found.push(decode(encoded!))
  }
  return found.length === 0 ? undefined : found.join(', ')
}

// A value that is not valid percent-encoding is kept as sent: the name rule refuses it.
function decode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
