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

/**
 * Whether `name` is a key in force or the admin token, which no session may be named (D35): a
 * session's name is shown whole wherever sessions are, and the admin document's `SessionName`
 * has no room for a masked one.
 */
export function isSecretName(name: string, secrets: Secrets): boolean {
  return name === secrets.adminToken || secrets.keys.includes(name)
}

/**
 * The refusal of a secret as a session name, said of `where`; the name itself is never echoed.
 *
 * @example
 * secretNameRule('X-Sandbox-Session') // 'X-Sandbox-Session must not be an API key or the admin token'
 */
export function secretNameRule(where: string): string {
  return `${where} must not be an API key or the admin token`
}
