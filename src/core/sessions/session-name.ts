import { adminOpenapiDocument } from '../contract/admin-openapi-document.js'
import { ConfigError } from '../errors/config-error.js'

/** The request header that names a request's session (docs/decisions.md#d34); without it, the default session. */
export const SESSION_HEADER = 'x-sandbox-session'

/** The name of the session a request without `X-Sandbox-Session` is in: today's sandbox. */
export const DEFAULT_SESSION = 'default'

// The rule is said once, as the admin document's SessionName schema: the check and its message
// are read from it.
const { schemas } = adminOpenapiDocument.components as { schemas: Record<string, { pattern: string; description: string }> }
const schema = schemas.SessionName!
const pattern = new RegExp(schema.pattern)
const rule = schema.description.replace(/^sandbox - /, '')

/**
 * Whether `name` may name a session (the admin document's `SessionName`).
 *
 * @example
 * isSessionName('worker-3') // true
 * isSessionName('.hidden')  // false
 */
export function isSessionName(name: string): boolean {
  return pattern.test(name)
}

/**
 * `name` when it may name a session; otherwise a ConfigError saying the rule about `where`
 * ("X-Sandbox-Session must be 1 to 64 letters, …"). Values are never quoted: a header may hold anything.
 */
export function checkSessionName(name: unknown, where: string): string {
  if (typeof name === 'string' && isSessionName(name)) return name
  throw new ConfigError(sessionNameRule(where))
}

/**
 * The rule, said of `where`.
 *
 * @example
 * sessionNameRule('X-Sandbox-Session') // "X-Sandbox-Session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
 */
export function sessionNameRule(where: string): string {
  return `${where} must be ${rule}`
}
