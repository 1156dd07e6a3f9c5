import { nearestName, shownName } from '../contract/check-input.js'
import { DEMO_KEYS } from './demo-keys.js'
import type { ApiKey } from './key-config.js'
import { maskKey } from './mask-key.js'

const PUBLIC_KEYS = new Set(DEMO_KEYS.map((key) => key.key))

/**
 * Why `typed` names no key: shown as it was typed (it is no configured key, so no secret), with
 * the nearest configured key when it looks like a typo. That one is named whole only when it is a
 * demo key, which the banner prints anyway; a key of a keys file is masked (`sk_l…#1a2b`).
 *
 * @example
 * noConfiguredKey('sandbox-fre-key', ring.keys) // 'sandbox-fre-key is no configured key; did you mean sandbox-free-key?'
 */
export function noConfiguredKey(typed: string, keys: readonly ApiKey[]): string {
  const nearest = nearestName(
    typed,
    keys.map((apiKey) => apiKey.key),
  )
  const hint = nearest === undefined ? '' : `; did you mean ${PUBLIC_KEYS.has(nearest) ? nearest : maskKey(nearest)}?`
  return `${shownName(typed)} is no configured key${hint}`
}
