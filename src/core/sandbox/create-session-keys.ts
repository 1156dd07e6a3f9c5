import type { BoundKeys } from '../auth/create-bound-keys.js'
import { newBoundToken } from '../auth/create-bound-keys.js'
import { limitsOf } from '../auth/resolve-keys.js'
import { checkInput } from '../contract/check-input.js'
import { ConfigError } from '../errors/config-error.js'
import { DEFAULT_SESSION } from '../sessions/session-name.js'
import type { SessionKeyInit, SessionKeys } from './sandbox.js'

/** Creates session `name`'s bound keys (D46); `use` makes the session first. */
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

/** Names the admin operation serving each `SessionKeys` member. */
export const SESSION_KEYS_SERVED = {
  add: 'addSessionKey',
  list: 'getSession',
} as const satisfies Record<keyof SessionKeys, string>
