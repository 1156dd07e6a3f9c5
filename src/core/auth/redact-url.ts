import { maskKey, maskUrl } from './mask-key.js'
import { redactKeys } from './redact-keys.js'

/**
 * A request URL (or path and query) as a log may show it: credential-like query parameters
 * masked, and every configured key masked, including one the client percent-encoded
 * (`?q=team%2Dkey`), which would otherwise pass unrecognised. The URL stays encoded: only the
 * part of a segment that decodes to a key is replaced by the key's mask, and the rest of that
 * segment is encoded again, so a decoded CR, LF or ESC can never reach a log line.
 *
 * @example
 * redactUrl('/v1/pets?q=team%2Dsecret%2Dkey%0D%0A', ['team-secret-key']) // '/v1/pets?q=team…#1a2b%0D%0A'
 */
export function redactUrl(url: string, keys: readonly string[]): string {
  const masked = redactKeys(maskUrl(url), keys)
  if (!masked.includes('%') || keys.length === 0) return masked
  // Segments between delimiters, each decoded on its own: a key spans no delimiter of the URL.
  return masked.replace(/[^/?&=#;]+/g, (segment) => {
    if (!segment.includes('%')) return segment
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return segment
    }
    if (!keys.some((key) => key !== '' && decoded.includes(key))) return segment
    return maskWithin(decoded, keys)
  })
}

/** `decoded` with each key replaced by its mask and everything else percent-encoded again. */
function maskWithin(decoded: string, keys: readonly string[]): string {
  const key = keys.find((candidate) => candidate !== '' && decoded.includes(candidate))
  if (key === undefined) return encodeURIComponent(decoded)
  return decoded
    .split(key)
    .map((part) => maskWithin(part, keys))
    .join(maskKey(key))
}
