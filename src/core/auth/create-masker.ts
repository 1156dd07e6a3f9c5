import { maskKey, maskSecret } from './mask-key.js'

/** What no log, list, HAR or answer may show whole. */
export interface Secrets {
  /** The keys in force: each shown by its first four characters and a fingerprint (`team…#1a2b`). */
  keys: readonly string[]
  /** The admin token: a fingerprint alone, never a character of it (D31). */
  adminToken?: string | undefined
}

/**
 * The one masker (D35): every place a key or the admin token can travel (a URL, a header, a
 * body, a message) is shown through it, so each secret is masked however the client wrote it.
 * A secret is found raw, percent-encoded whole or in part (`team%2Fsecret%2Bkey`, as Python's
 * `quote()` writes it), with JSON's escapes (`team\/secret`, `\u0074eam`), or any mix of these;
 * what it replaces is exactly the written form, and nothing else is decoded, so a decoded CR, LF
 * or ESC never reaches a log line.
 */
export interface Masker {
  /** Any text a client sent or an answer echoes: a message, a header's value, a body. */
  text(text: string): string
  /**
   * A request target (path and query) as a log shows it: still percent-encoded, each secret
   * masked, and the values of credential-like query parameters (`?api_key=`, `?token=`) hidden
   * even when they are no configured key, since a client may put a key there (D17).
   */
  url(target: string): string
  /**
   * A header's value: a credential header (by its name: Authorization, Cookie, X-Api-Key...)
   * masked whole whatever it holds, any other header as text. `adminPath`: on the admin API,
   * where a Bearer credential is the admin token or a guess at it, a fingerprint alone.
   */
  header(name: string, value: string, adminPath?: boolean): string
  /** An Authorization header as the log's key column shows it (`sand…#1a2b`), `-` when there is none. */
  credential(authorization: string | undefined): string
  /** The secrets it masks. */
  readonly secrets: Secrets
}

// Query parameters that look like credentials: their values are hidden even when they are no
// configured key (D17: the sandbox never takes a key from the query, but a client may put one there).
const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token)=)[^&#]*/gi

// Headers that carry a credential by their name, whatever their value.
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i

// The characters a secret is made of (the BearerToken rule, fixtures/admin-openapi.yaml): an escape
// is decoded only when it stands for one of them, since nothing else can be part of a secret.
const SECRET_CHAR = /^[A-Za-z0-9._~+/=-]$/

/**
 * The masker of `secrets`. Cheap to make (nothing is computed until a secret is met), so callers
 * make one per read with the secrets in force then, those added at runtime included.
 *
 * @example
 * const masker = createMasker({ keys: ['team/secret+key'] })
 * masker.url('/v1/pets/team%2Fsecret%2Bkey') // '/v1/pets/team…#1a2b'
 * masker.text('{"name":"team\\/secret+key"}') // '{"name":"team…#1a2b"}'
 */
export function createMasker(given: Secrets): Masker {
  const { keys, adminToken } = given
  // Each secret with how it is shown, made when first met. Set after the keys, the admin token
  // never shows a prefix, even if it were also a key.
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
  // Longest first: where two secrets overlap, the longer one is masked whole.
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
  // A credential shows its first four characters like a key, unless they are the admin token's:
  // the token itself or a guess at it shows a fingerprint alone.
  const adminStart = adminToken?.slice(0, 4)
  const credentialMask = (credential: string): string =>
    adminStart !== undefined && adminStart !== '' && credential.replace(/^"/, '').startsWith(adminStart)
      ? maskSecret(credential)
      : maskKey(credential)
  const schemeAndCredential = (value: string, adminPath: boolean): string => {
    const match = /^\s*([A-Za-z][A-Za-z0-9!#$&'*+.^_`|~-]*)\s+(\S(?:.*\S)?)\s*$/s.exec(value)
    if (match === null) return maskSecret(value.trim())
    const [, scheme, credential] = match as unknown as [string, string, string]
    // Only a Bearer key shows its first characters; another scheme's credential (Basic) never.
    return `${scheme} ${!adminPath && scheme.toLowerCase() === 'bearer' ? credentialMask(credential) : maskSecret(credential)}`
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
        // The cookie's value is a credential; its attributes (Path, Expires...) only text.
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

/**
 * `written` with each secret masked wherever its decoded form holds it. The decoded form turns
 * `%XX`, `\/` and `\uXXXX` into the character they stand for when that character can be part of
 * a secret; each decoded character remembers where its written form starts, so a match replaces
 * exactly what was written, and the rest is left as written.
 */
function maskDecoded(written: string, secrets: ReadonlyArray<readonly [string, () => string]>): string {
  let decoded = ''
  // starts[i]: where the written form of decoded character i begins; starts[decoded.length] = written.length.
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
  // Earliest first, the longer of two that start together; a match inside one taken is skipped.
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

/** The character written at `i` and how many characters its written form takes. */
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
    // Any other escape (`\\`, `\"`, `\n`) is one unit, so the character after it is not read as escaped.
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
