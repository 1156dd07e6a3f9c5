import { maskKey, maskSecret } from './mask-key.js'

export interface Secrets {
  keys: readonly string[]
  /** Shows as a fingerprint alone (D31). */
  adminToken?: string | undefined
}

/** Masks every secret, however encoded (D35). */
export interface Masker {
  text(text: string): string
  /** Also hides credential-like query values (D17). */
  url(target: string): string
  /** Masks a credential header; on `adminPath` as a fingerprint. */
  header(name: string, value: string, adminPath?: boolean): string
  /** Shows an Authorization header as the log's key column. */
  credential(authorization: string | undefined): string
  readonly secrets: Secrets
}

const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token)=)[^&#]*/gi

const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i

// What a secret can hold (the BearerToken rule).
const SECRET_CHAR = /^[A-Za-z0-9._~+/=-]$/

export function sameSecrets(a: Secrets, b: Secrets): boolean {
  return a.adminToken === b.adminToken && a.keys.length === b.keys.length && a.keys.every((key, i) => key === b.keys[i])
}

/** Creates a masker, cheap per read. */
export function createMasker(given: Secrets): Masker {
  const { keys, adminToken } = given
  // Admin token last: never a prefix, even as a key.
  const found = new Map<string, () => string>()
  for (const key of keys)
    if (key !== '')
      found.set(
        key,
        once(() => maskKey(key)),
      )
  if (adminToken !== undefined && adminToken !== '')
    found.set(
      adminToken,
      once(() => maskSecret(adminToken)),
    )
  // Longest first: overlapping secrets mask the longer whole.
  const secrets = [...found].sort(([a], [b]) => b.length - a.length)

  const text = (written: string): string => {
    if (secrets.length === 0) return written
    if (!written.includes('%') && !written.includes('\\')) {
      let masked = written
      for (const [secret, mask] of secrets) if (masked.includes(secret)) masked = masked.replaceAll(secret, mask())
      return masked
    }
    return maskDecoded(written, secrets)
  }
  // No prefix of a credential that starts as the admin token does.
  const adminStart = adminToken?.slice(0, 4)
  const credentialMask = (credential: string): string =>
    adminStart !== undefined && adminStart !== '' && credential.replace(/^"/, '').startsWith(adminStart)
      ? maskSecret(credential)
      : maskKey(credential)
  const schemeAndCredential = (value: string, adminPath: boolean): string => {
    const match = /^\s*([A-Za-z][A-Za-z0-9!#$&'*+.^_`|~-]*)\s+(\S(?:.*\S)?)\s*$/s.exec(value)
    if (match === null) return maskSecret(value.trim())
    const [, scheme, credential] = match as unknown as [string, string, string]
    const bearer = !adminPath && scheme.toLowerCase() === 'bearer'
    return `${scheme} ${bearer ? credentialMask(credential) : maskSecret(credential)}`
  }
  const cookiePair = (pair: string): string => {
    const equals = pair.indexOf('=')
    if (equals === -1) return pair.trim() === '' ? '' : maskSecret(pair.trim())
    const value = pair.slice(equals + 1).trim()
    return `${text(pair.slice(0, equals).trim())}=${value === '' ? '' : credentialMask(value)}`
  }

  return {
    secrets: given,
    text,
    url: (target) => text(target.replace(SECRET_PARAMS, '$1…')),
    header(name, value, adminPath = false) {
      const lower = name.toLowerCase()
      if (lower === 'set-cookie') {
        const [pair = '', ...attributes] = value.split(';')
        return [cookiePair(pair), ...attributes.map((attribute) => text(attribute))].join(';')
      }
      if (!CREDENTIAL_HEADER.test(lower)) return text(value)
      if (lower === 'cookie') return value.split(';').map(cookiePair).join('; ')
      if (lower === 'authorization' || lower === 'proxy-authorization') return schemeAndCredential(value, adminPath)
      return value.trim() === '' ? value : credentialMask(value.trim())
    },
    credential(authorization) {
      if (authorization === undefined) return '-'
      const [scheme, token] = authorization.trim().split(/\s+/)
      if (token === undefined) return '…'
      return scheme?.toLowerCase() === 'bearer' ? credentialMask(token) : maskSecret(token)
    },
  }
}

function maskDecoded(written: string, secrets: ReadonlyArray<readonly [string, () => string]>): string {
  let decoded = ''
  // Each decoded character's start in `written`.
  const starts: number[] = []
  for (let i = 0; i < written.length; ) {
    starts.push(i)
    const [character, width] = decodeAt(written, i)
    decoded += character
    i += width
  }
  starts.push(written.length)
  const matches: Array<{ from: number; to: number; mask: () => string }> = []
  for (const [secret, mask] of secrets) {
    for (let at = decoded.indexOf(secret); at !== -1; at = decoded.indexOf(secret, at + secret.length)) {
      matches.push({ from: at, to: at + secret.length, mask })
    }
  }
  if (matches.length === 0) return written
  // Earliest, then longer; one inside another is skipped.
  matches.sort((a, b) => a.from - b.from || b.to - a.to)
  let result = ''
  let copied = 0
  let end = 0
  for (const { from, to, mask } of matches) {
    if (from < end) continue
    result += written.slice(copied, starts[from]) + mask()
    copied = starts[to]!
    end = to
  }
  return result + written.slice(copied)
}

function decodeAt(written: string, i: number): [string, number] {
  const here = written[i]!
  if (here === '%') {
    const decoded = fromHex(written.slice(i + 1, i + 3))
    return decoded === undefined ? [here, 1] : [decoded, 3]
  }
  if (here === '\\' && i + 1 < written.length) {
    const next = written[i + 1]!
    if (next === '/') return ['/', 2]
    if (next === 'u') {
      const decoded = fromHex(written.slice(i + 2, i + 6))
      if (decoded !== undefined) return [decoded, 6]
    }
    // Whole, so its next character is not read as escaped.
    return ['\\', 2]
  }
  return [here, 1]
}

function fromHex(digits: string): string | undefined {
  if (!/^(?:[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4})$/.test(digits)) return undefined
  const character = String.fromCharCode(Number.parseInt(digits, 16))
  return SECRET_CHAR.test(character) ? character : undefined
}

function once(make: () => string): () => string {
  let made: string | undefined
  return () => (made ??= make())
}
