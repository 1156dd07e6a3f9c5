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
