import type { Secrets } from '../auth/create-masker.js'
import { createLru } from '../cache/create-lru.js'
import { adminOpenapiDocument } from '../contract/admin-openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { SessionName } from '../state/shared-state.js'

export type { SessionName }

/** Names a request's session (D34). */
export const SESSION_HEADER = 'x-sandbox-session'

/** Names the session of a request without `X-Sandbox-Session`. */
export const DEFAULT_SESSION = 'default' as SessionName

const { schemas } = adminOpenapiDocument.components as {
  schemas: Record<string, { pattern: string; description: string }>
}
const schema = schemas.SessionName!
const pattern = new RegExp(schema.pattern)
const rule = schema.description.replace(/^sandbox - /, '')

/** Says why `name` may not name a session, never quoting it (D35). */
export function sessionNameRefusal(name: unknown, where: string, secrets?: Secrets): string | undefined {
  if (typeof name !== 'string' || !pattern.test(name)) return `${where} must be ${rule}`
  if (secrets !== undefined && (name === secrets.adminToken || secrets.keys.includes(name)))
    return `${where} must not be an API key or the admin token`
  return undefined
}

/** Returns `name` branded, or throws a ConfigError. */
export function checkSessionName(name: unknown, where: string, secrets?: Secrets): SessionName {
  const read = readSessionName(name, where, secrets)
  if (typeof read !== 'string') throw new ConfigError(read.refusal)
  return read
}

/** Returns `name` branded, or the refusal. */
export function readSessionName(name: unknown, where: string, secrets?: Secrets): SessionName | { refusal: string } {
  const refusal = sessionNameRefusal(name, where, secrets)
  return refusal === undefined ? (name as SessionName) : { refusal }
}

/** Names a session by its `sandbox-session` member (D43). */
export const BAGGAGE_HEADER = 'baggage'

export const BAGGAGE_MEMBER = 'sandbox-session'

/** Holds an unchecked session name and where it was named. */
export interface RequestedSession {
  readonly name: string
  readonly where: 'X-Sandbox-Session' | "baggage's sandbox-session"
}

// W3C Baggage's grammar.
const MEMBER =
  /^[\t ]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[\t ]*=[\t ]*([\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*)[\t ]*(;.*)?$/
const PROPERTY = /^[\t ]*[!#$%&'*+.^_`|~0-9A-Za-z-]+[\t ]*(=[\t ]*[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*[\t ]*)?$/
// The W3C limit bounds what a client makes the sandbox read.
const MAX_BAGGAGE_CHARS = 8192

/** Reads the session a request names (D43), unchecked; `fromBaggage` reads a `baggage` header's. */
export function requestedSession(
  header: (name: string) => string | null | undefined,
  fromBaggage: (baggage: string) => RequestedSession | undefined = baggageRequest,
): RequestedSession | undefined {
  const named = header(SESSION_HEADER)
  if (named !== null && named !== undefined) return { name: named, where: 'X-Sandbox-Session' }
  const baggage = header(BAGGAGE_HEADER)
  return baggage === null || baggage === undefined ? undefined : fromBaggage(baggage)
}

function baggageRequest(baggage: string): RequestedSession | undefined {
  const name = baggageSession(baggage)
  return name === undefined ? undefined : { name, where: "baggage's sandbox-session" }
}

// A client sends the same baggage with every request: the last few values read are remembered.
const REMEMBERED_BAGGAGE = 64

/** Creates a `fromBaggage` that remembers what the last values it read name (BENCHMARKS.md, "Sessions"). */
export function createBaggageReader(): (baggage: string) => RequestedSession | undefined {
  const remembered = createLru<RequestedSession | null>(() => REMEMBERED_BAGGAGE)
  return (baggage) => {
    const found = remembered.use(baggage)
    if (found !== undefined) return found ?? undefined
    return remembered.put(baggage, baggageRequest(baggage) ?? null) ?? undefined
  }
}

/** Reads baggage's `sandbox-session`; two join with a comma, which the rule refuses. */
export function baggageSession(value: string): string | undefined {
  if (value.length > MAX_BAGGAGE_CHARS || !value.includes(BAGGAGE_MEMBER)) return undefined
  const found: string[] = []
  for (const member of value.split(',')) {
    // List headers allow empty members.
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

// Keeps bad percent-encoding as sent: the name rule refuses it.
function decode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
