import { SESSION_HEADER } from './session-name.js'

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
 * The session a request names (D34, D43): `X-Sandbox-Session`, or without it the `sandbox-session`
 * member of its `baggage` header (percent-decoded); undefined when it names none (the default
 * session). A malformed baggage header names none. The name is not checked: the caller refuses a
 * bad one with `sessionNameRefusal(name, where)`.
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
 * The `sandbox-session` member of a baggage header's value, percent-decoded; undefined when the
 * header is malformed or has no such member. Two such members are read as one name joined by a
 * comma, as a repeated X-Sandbox-Session is, which the name rule refuses.
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
