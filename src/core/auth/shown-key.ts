import { DEMO_KEYS } from './demo-keys.js'
import { maskKey } from './mask-key.js'

const PUBLIC_KEYS = new Set(DEMO_KEYS.map((key) => key.key))

/**
 * A configured key as a message or a page names it: a demo key whole (the banner and the front
 * door print them anyway), any other key masked (`team…#1a2b`), as a secret of a keys file may be.
 *
 * @example
 * shownKey('sandbox-free-key') // 'sandbox-free-key'
 */
export function shownKey(key: string): string {
  return PUBLIC_KEYS.has(key) ? key : maskKey(key)
}
