/**
 * One part of a sandbox that may be unable to serve for a while (the store while it seeds, a
 * shared backend while it is unreachable): `notReady` says why, or `undefined` when it can serve.
 *
 * @example
 * const redis: ReadinessCheck = { name: 'redis', notReady: () => (client.isReady ? undefined : 'unreachable') }
 */
export interface ReadinessCheck {
  name: string
  notReady(): string | undefined
  /** What the part notes while it serves, if anything (a Redis Cluster master without a replica). */
  detail?(): string | undefined
}

/** Whether a sandbox can serve, and each check's answer (`sandbox.readiness()`, `GET /readyz`). */
export interface Readiness {
  ready: boolean
  checks: Array<{ name: string; ready: boolean; reason?: string; detail?: string }>
}

/**
 * The readiness of a sandbox: ready when every check is. Checks are read on each call, so a part
 * that recovers is ready again without telling anyone.
 *
 * @example
 * const readiness = createReadiness([{ name: 'store', notReady: () => (seeded ? undefined : 'seeding') }])
 * readiness.current().ready // false while seeding
 */
export function createReadiness(checks: ReadinessCheck[] = []) {
  return {
    /** Adds a check, for a part composed after the sandbox was created. */
    add(check: ReadinessCheck): void {
      checks.push(check)
    },
    current(): Readiness {
      const results = checks.map(({ name, notReady, detail }) => {
        const reason = notReady()
        const noted = detail?.()
        return {
          name,
          ...(reason === undefined ? { ready: true } : { ready: false, reason }),
          ...(noted === undefined ? {} : { detail: noted }),
        }
      })
      return { ready: results.every((result) => result.ready), checks: results }
    },
  }
}

export type ReadinessRegistry = ReturnType<typeof createReadiness>
