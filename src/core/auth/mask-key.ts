/** Shows a key's first four characters and fingerprint. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 4)}${maskSecret(key)}` : maskSecret(key)
}

/** Shows a secret by its fingerprint alone (`…#1a2b`). */
export function maskSecret(secret: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < secret.length; i++) {
    hash ^= secret.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `…#${(hash & 0xffff).toString(16).padStart(4, '0')}`
}
