/**
 * Shows enough of a key to tell keys apart in a log, never the whole key: its first four
 * characters and a short fingerprint (FNV-1a), which identifies a key without revealing its end.
 */
export function maskKey(key: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  const fingerprint = (hash & 0xffff).toString(16).padStart(4, '0')
  return key.length >= 12 ? `${key.slice(0, 4)}…#${fingerprint}` : `…#${fingerprint}`
}

/** The masked key of an Authorization header, or `-` when there is none. */
export function maskAuthorization(header: string | undefined): string {
  if (header === undefined) return '-'
  const token = header.trim().split(/\s+/)[1]
  return token === undefined ? '…' : maskKey(token)
}

// Query parameters that look like credentials are masked too: a client may put a key there even
// though the sandbox never accepts it from the query (D17).
const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token)=)[^&]*/gi

/** A request URL (or path) with credential-like query parameters masked. */
export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1…')
}
