/**
 * Shows enough of a key to tell keys apart in a log, never the whole key: its first four
 * characters and a short fingerprint (FNV-1a), which identifies a key without revealing its end.
 */
export function maskKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 4)}${maskSecret(key)}` : maskSecret(key)
}

/**
 * A fingerprint alone (`…#1a2b`), for secrets of which not even a prefix may be shown: the
 * admin token and guesses at it, credentials of other schemes (`Basic`).
 */
export function maskSecret(secret: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < secret.length; i++) {
    hash ^= secret.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `…#${(hash & 0xffff).toString(16).padStart(4, '0')}`
}

/**
 * The masked key of an Authorization header, or `-` when there is none. Only a Bearer key shows
 * its first characters; any other scheme's credential (a Basic user and password) is a fingerprint.
 */
export function maskAuthorization(header: string | undefined): string {
  if (header === undefined) return '-'
  const [scheme, token] = header.trim().split(/\s+/)
  if (token === undefined) return '…'
  return scheme?.toLowerCase() === 'bearer' ? maskKey(token) : maskSecret(token)
}

// Query parameters that look like credentials are masked too: a client may put a key there even
// though the sandbox never accepts it from the query (D17).
const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token)=)[^&]*/gi

/** A request URL (or path) with credential-like query parameters masked. */
export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1…')
}
