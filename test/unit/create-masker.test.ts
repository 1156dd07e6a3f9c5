import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createMasker } from '../../src/core/auth/create-masker.js'
import { maskKey, maskSecret } from '../../src/core/auth/mask-key.js'

const KEY = 'team/secret+key=='
const ADMIN = 'admin-token-0123456789'
const masker = createMasker({ keys: [KEY, 'sandbox-free-key'], adminToken: ADMIN })

/** Every way a reader could decode what was shown: as written, percent-decoded, JSON-unescaped, a query's values. */
function readings(shown: string): string[] {
  const all = [shown]
  try {
    all.push(decodeURIComponent(shown))
  } catch {}
  all.push(
    shown
      .replace(/\\\//g, '/')
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  )
  if (URL.canParse(`http://x.test${shown}`))
    for (const [name, value] of new URL(`http://x.test${shown}`).searchParams) all.push(name, value)
  return all
}

// Each character of a secret written as itself, percent-encoded (either case) or JSON-escaped.
const written = (secret: string, json: boolean) =>
  fc
    .tuple(
      ...[...secret].map(() =>
        fc.constantFrom('raw', 'upper', 'lower', ...(json ? (['unicode', 'slash'] as const) : [])),
      ),
    )
    .map((ways) =>
      [...secret]
        .map((character, i) => {
          const hex = character.charCodeAt(0).toString(16).padStart(2, '0')
          switch (ways[i]) {
            case 'upper':
              return `%${hex.toUpperCase()}`
            case 'lower':
              return `%${hex}`
            case 'unicode':
              return `\\u00${hex}`
            case 'slash':
              return character === '/' ? '\\/' : character
            default:
              return character
          }
        })
        .join(''),
    )

it('masks a secret however it is written: raw, percent-encoded whole or in part, JSON-escaped, in a URL or a text', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(KEY, ADMIN),
      fc.boolean(),
      fc.string({ maxLength: 8 }),
      fc.string({ maxLength: 8 }),
      (secret, json, before, after) => {
        fc.pre(!`${before}${after}`.includes('%') && !`${before}${after}`.includes('\\'))
        return fc.assert(
          fc.property(written(secret, json), (form) => {
            for (const shown of [
              masker.text(`${before}${form}${after}`),
              masker.url(`/v1/pets?q=${form}&limit=1`),
              masker.url(`/v1/${form}`),
            ]) {
              for (const reading of readings(shown)) expect(reading).not.toContain(secret)
            }
          }),
          { numRuns: 20 },
        )
      },
    ),
    { numRuns: 40 },
  )
})

it('replaces exactly what was written, and decodes nothing else', () => {
  expect(masker.url('/v1/pets/team%2Fsecret%2Bkey%3D%3D?x=%0d%0a')).toBe(`/v1/pets/${maskKey(KEY)}?x=%0d%0a`)
  expect(masker.url('/v1/pets/team/secret%2Bkey==')).toBe(`/v1/pets/${maskKey(KEY)}`)
  expect(masker.text('{"name":"team\\/secret+key==","q":"\\n"}')).toBe(`{"name":"${maskKey(KEY)}","q":"\\n"}`)
  // An escaped backslash is one unit: the slash after it is a slash, not an escape.
  expect(masker.text('team\\\\/secret+key==')).toBe('team\\\\/secret+key==')
  expect(masker.text('nothing secret %zz \\')).toBe('nothing secret %zz \\')
})

it('shows the admin token by a fingerprint alone, wherever it travels', () => {
  expect(masker.url(`/v1/pets?t=${ADMIN}`)).toBe(`/v1/pets?t=${maskSecret(ADMIN)}`)
  expect(masker.credential(`Bearer ${ADMIN}`)).toBe(maskSecret(ADMIN))
  expect(masker.header('authorization', `Bearer ${ADMIN}`)).toBe(`Bearer ${maskSecret(ADMIN)}`)
  // A guess that starts as the token does shows none of it either.
  expect(masker.credential(`Bearer ${ADMIN.slice(0, 6)}-wrong-guess`)).toMatch(/^…#[0-9a-f]{4}$/)
  expect(masker.header('x-api-key', ADMIN)).toBe(maskSecret(ADMIN))
})

it('masks credential headers whole by their name, and any header by the secrets in its value', () => {
  expect(masker.header('Cookie', `apikey=${KEY}; theme=dark`)).toBe(
    `apikey=${maskKey(KEY)}; theme=${maskSecret('dark')}`,
  )
  expect(masker.header('Cookie', 'sandbox-free-key')).toBe(maskSecret('sandbox-free-key'))
  expect(masker.header('X-Api-Key', `${KEY} extra`)).not.toContain(KEY)
  expect(masker.header('X-Api-Key', KEY)).toBe(maskKey(KEY))
  expect(masker.header('Set-Cookie', `session=${KEY}; Path=/; HttpOnly`)).toBe(
    `session=${maskKey(KEY)}; Path=/; HttpOnly`,
  )
  expect(masker.header('Authorization', `Basic ${KEY}`)).toBe(`Basic ${maskSecret(KEY)}`)
  expect(masker.header('Authorization', `apikey=${KEY}; x=1`)).toBe(maskSecret(`apikey=${KEY}; x=1`))
  expect(masker.header('Link', `</v1/pets?key=team%2Fsecret%2Bkey%3D%3D>; rel="next"`)).toBe(
    `</v1/pets?key=${maskKey(KEY)}>; rel="next"`,
  )
  expect(masker.header('Accept', 'application/json')).toBe('application/json')
})

it('hides credential-like query parameters even when they hold no configured key', () => {
  expect(masker.url('/v1/pets?api_key=whatever&limit=2&token=x#frag')).toBe('/v1/pets?api_key=…&limit=2&token=…#frag')
})
