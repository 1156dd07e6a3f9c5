import type { BoundKeys } from '../auth/create-bound-keys.js'
import { newBoundToken } from '../auth/create-bound-keys.js'
import { limitsOf } from '../auth/resolve-keys.js'
import { checkInput } from '../contract/check-input.js'
import { ConfigError } from '../errors/config-error.js'
import { DEFAULT_SESSION } from '../sessions/session-name.js'
import type { SessionKeyInit, SessionKeys } from './sandbox.js'

/**
 * The bound keys of session `name` (docs/decisions.md#d46): `use` counts a use of the session (making
 * it when absent) before a key is bound to it, as the admin API's call does.
 */
export function createSessionKeys(name: string, bound: BoundKeys, use: () => Promise<void>): SessionKeys {
  return {
    async add(init: SessionKeyInit) {
      if (name === DEFAULT_SESSION)
        throw new ConfigError('the default session takes no bound keys: every key in force is in it already')
      const { plan, perMinute, perDay } = checkInput<SessionKeyInit>('SessionKeyInit', init, 'key')
      const apiKey = limitsOf({
        key: newBoundToken(),
        plan,
        ...(perMinute === undefined ? {} : { perMinute }),
        ...(perDay === undefined ? {} : { perDay }),
      })
      await use()
      await bound.bind(name, [apiKey])
      return { ...apiKey, session: name }
    },
    list: async () => [...(await bound.of(name))],
  }
}

/**
 * The admin operation serving each member of `SessionKeys` (D46): a member added to it and served
 * nowhere fails to compile; a test holds the operations to the admin document.
 */
export const SESSION_KEYS_SERVED = {
  add: 'addSessionKey',
  list: 'getSession',
} as const satisfies Record<keyof SessionKeys, string>
