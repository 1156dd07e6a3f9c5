import { ConfigError, UnknownKeyError } from '../errors/config-error.js'
import type { BoundKeys } from './create-bound-keys.js'
import type { KeyRing } from './create-key-ring.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import type { KeyChanges, KeyStorage } from './key-storage.js'
import type { Limits, Plan } from './plans.js'
import { resolveKey } from './resolve-keys.js'

/** Changes keys at runtime, each durable first (D22). */
export interface SandboxApiKeys {
  add(config: KeyConfig): Promise<ApiKey>
  /** Keeps the key's counters. */
  setPlan(key: string, plan: Plan, limits?: Partial<Limits>): Promise<ApiKey>
  revoke(key: string): Promise<void>
}

/** Adds the ring, which takes up other processes' changes. */
export interface KeyControls extends SandboxApiKeys {
  readonly ring: KeyRing
}

export interface KeyControlsOptions {
  keyRing: KeyRing
  storage: KeyStorage | undefined
  adminToken: string | undefined
  /** Keeps a key from equalling a bound one (D46). */
  boundKeys: Pick<BoundKeys, 'known' | 'ask'>
  /** Drops a revoked key's scenario in every session. */
  afterRevoke?: (key: string) => Promise<void>
}

export function createKeyControls({
  keyRing,
  storage,
  adminToken,
  boundKeys,
  afterRevoke,
}: KeyControlsOptions): KeyControls {
  // Null once revoked.
  const changes = new Map<string, KeyConfig | null>()
  const initial = keyRing.keys
  const configured = new Set(initial.map((apiKey) => apiKey.key))
  const apply = ({ put, revoked }: KeyChanges) => {
    const resolved = put.map((config, index) => resolveKey(config, `restored keys: put[${index}]`))
    keyRing.replace(initial.filter((apiKey) => !revoked.includes(apiKey.key)))
    for (const apiKey of resolved) keyRing.put(apiKey)
    changes.clear()
    for (const key of revoked) changes.set(key, null)
    for (const config of put) changes.set(config.key, config)
  }
  if (storage !== undefined) apply(storage.restored)

  let queue: Promise<unknown> = Promise.resolve()
  function change<T>(apply: () => { key: string; config: KeyConfig | null; result: T }): Promise<T> {
    const run = queue.then(async () => {
      const { key, config, result } = apply()
      const next = new Map(changes).set(key, config)
      if (config === null && !configured.has(key)) next.delete(key)
      await storage?.commit(snapshot(next))
      changes.clear()
      for (const [name, value] of next) changes.set(name, value)
      if (config === null) keyRing.remove(key)
      else keyRing.put(result as ApiKey)
      return result
    })
    queue = run.catch(() => undefined)
    return run
  }

  const existing = (key: string): ApiKey => {
    const found = keyRing.keys.find((apiKey) => apiKey.key === key)
    if (found === undefined) throw new UnknownKeyError(key)
    return found
  }

  const follow = () => {
    const news = storage?.news?.()
    if (news === undefined) return
    try {
      apply(news)
    } catch {
      // Skips what it cannot read: the writer checked.
    }
  }

  return {
    ring: {
      ...keyRing,
      find(token) {
        follow()
        return keyRing.find(token)
      },
      get keys() {
        follow()
        return keyRing.keys
      },
    },
    async add(config) {
      const key = (config as Partial<KeyConfig> | null)?.key
      if (typeof key === 'string' && (boundKeys.known(key) ?? (await boundKeys.ask?.(key))) !== undefined)
        throw new ConfigError('key is bound to a session: a key of the sandbox must differ from every bound key')
      return change(() => {
        const apiKey = resolveKey(config)
        if (keyRing.keys.some((candidate) => candidate.key === apiKey.key))
          throw new ConfigError('key is already configured')
        if (apiKey.key === adminToken) throw new ConfigError('key must differ from the admin token')
        return { key: apiKey.key, config: configOf(apiKey, config), result: apiKey }
      })
    },
    setPlan: (key, plan, limits = {}) =>
      change(() => {
        existing(key)
        const config = { key, plan, ...limits }
        const apiKey = resolveKey(config)
        return { key, config: configOf(apiKey, config), result: apiKey }
      }),
    async revoke(key) {
      await change(() => {
        existing(key)
        return { key, config: null, result: undefined }
      })
      await afterRevoke?.(key)
    },
  }
}

function configOf(apiKey: ApiKey, given: Partial<KeyConfig>): KeyConfig {
  return {
    key: apiKey.key,
    plan: apiKey.plan,
    ...(given.perMinute === undefined ? {} : { perMinute: apiKey.perMinute }),
    ...(given.perDay === undefined ? {} : { perDay: apiKey.perDay }),
  }
}

function snapshot(changes: Map<string, KeyConfig | null>): KeyChanges {
  const put: KeyConfig[] = []
  const revoked: string[] = []
  for (const [key, config] of changes) {
    if (config === null) revoked.push(key)
    else put.push(config)
  }
  return { put, revoked }
}
