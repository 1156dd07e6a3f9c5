import { nearestName, shownName } from '../contract/describe-input-errors.js'
import type { ApiKey } from './key-config.js'
import { shownKey } from './shown-key.js'

/** Says why `typed` names no key, with the nearest. */
export function noConfiguredKey(typed: string, keys: readonly (ApiKey | string)[]): string {
  const nearest = nearestName(
    typed,
    keys.map((apiKey) => (typeof apiKey === 'string' ? apiKey : apiKey.key)),
  )
  const hint = nearest === undefined ? '' : `; did you mean ${shownKey(nearest)}?`
  return `${shownName(typed)} is no configured key${hint}`
}
