import type { Secrets } from '../auth/create-masker.js'
import { adminOpenapiDocument } from '../contract/admin-openapi-document.js'
import { ConfigError } from '../errors/config-error.js'

/** The request header that names a request's session (docs/decisions.md#d34); without it, the default session. */
export const SESSION_HEADER = 'x-sandbox-session'

/** The name of the session a request without `X-Sandbox-Session` is in: today's sandbox. */
export const DEFAULT_SESSION = 'default'

// The rule is said once, as the admin document's SessionName schema: the check and its message
// are read from it.
const { schemas } = adminOpenapiDocument.components as {
  schemas: Record<string, { pattern: string; description: string }>
}
const schema = schemas.SessionName!
const pattern = new RegExp(schema.pattern)
const rule = schema.description.replace(/^sandbox - /, '')

/**
 * Why `name` may not name a session, said of `where`; undefined when it may. The one rule for
 * every path that names a session (headers, baggage, admin paths and queries, capsules, the
 * library): the admin document's `SessionName`, and with `secrets` no key in force nor the admin
 * token (D35). Values are never quoted: a header may hold anything.
 *
 * @example
 * sessionNameRefusal('.hidden', 'X-Sandbox-Session') // "X-Sandbox-Session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
 * sessionNameRefusal('worker-3', 'X-Sandbox-Session') // undefined
 */
export function sessionNameRefusal(name: unknown, where: string, secrets?: Secrets): string | undefined {
  if (typeof name !== 'string' || !pattern.test(name)) return `${where} must be ${rule}`
  // A session's name is shown whole wherever sessions are, and `SessionName` has no room for a masked one.
  if (secrets !== undefined && (name === secrets.adminToken || secrets.keys.includes(name)))
    return `${where} must not be an API key or the admin token`
  return undefined
}

/** Answers `name` when it may name a session; otherwise throws a ConfigError saying `sessionNameRefusal`. */
export function checkSessionName(name: unknown, where: string, secrets?: Secrets): string {
  const refusal = sessionNameRefusal(name, where, secrets)
  if (refusal !== undefined) throw new ConfigError(refusal)
  return name as string
}
