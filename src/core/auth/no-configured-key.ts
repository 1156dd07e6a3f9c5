import { nearestName, shownName } from '../contract/describe-input-errors.js'
import type { ApiKey } from './key-config.js'
import { shownKey } from './shown-key.js'

/**
 * Why `typed` names no key: shown as it was typed (it is no configured key, so no secret), with
 * the nearest configured key when it looks like a typo. That one is named whole only when it is a
 * demo key, which the banner prints anyway; a key of a keys file is masked (`sk_l…#1a2b`).
 *
 * @example
 * noConfiguredKey('sandbox-fre-key', ring.keys) // 'sandbox-fre-key is no configured key; did you mean sandbox-free-key?'
 */
export function noConfiguredKey(typed: string, keys: readonly (ApiKey | string)[]): string {
  const nearest = nearestName(
    typed,
    keys.map((apiKey) => (typeof apiKey === 'string' ? apiKey : apiKey.key)),
  )
  const hint = nearest === undefined ? '' : `; did you mean ${shownKey(nearest)}?`
  return `${shownName(typed)} is no configured key${hint}`
}
