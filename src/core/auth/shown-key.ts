import { DEMO_KEYS } from './demo-keys.js'
import { maskKey } from './mask-key.js'

const PUBLIC_KEYS = new Set(DEMO_KEYS.map((key) => key.key))

/** Shows a demo key whole (the banner prints it), others masked. */
export function shownKey(key: string): string {
  return PUBLIC_KEYS.has(key) ? key : maskKey(key)
}
