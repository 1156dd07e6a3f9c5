import { maskUrl } from './mask-key.js'
import { redactKeys } from './redact-keys.js'

/**
 * A request URL (or path and query) as a log may show it: credential-like query parameters
 * masked, and every configured key masked, including one the client percent-encoded
 * (`?q=team%2Dkey`), which would otherwise pass unrecognised. When decoding reveals a key, the
 * decoded form is shown, masked.
 *
 * @example
 * redactUrl('/v1/pets?q=team%2Dsecret%2Dkey', ['team-secret-key']) // '/v1/pets?q=team…#1a2b'
 */
export function redactUrl(url: string, keys: readonly string[]): string {
  const masked = redactKeys(maskUrl(url), keys)
  if (!url.includes('%')) return masked
  let decoded: string
  try {
    decoded = decodeURIComponent(url)
  } catch {
    return masked
  }
  return keys.some((key) => decoded.includes(key)) ? redactKeys(maskUrl(decoded), keys) : masked
}
