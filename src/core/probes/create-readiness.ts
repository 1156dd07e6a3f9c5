/** A part of a sandbox that may be unable to serve for a while; `notReady` says why. */
export interface ReadinessCheck {
  name: string
  notReady(): string | undefined
  /** Notes something while it serves (a Redis Cluster master without a replica). */
  detail?(): string | undefined
}

/** Whether a sandbox can serve, with each check's answer (`sandbox.readiness()`, `GET /readyz`). */
export interface Readiness {
  ready: boolean
  checks: Array<{ name: string; ready: boolean; reason?: string; detail?: string }>
}

/** Creates a sandbox's readiness: ready when every check is, read afresh on each call. */
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

/** Creates the count of the store's seeding and resets in progress: its check is not ready while any runs. */
export function createStoreWork() {
  let running = 0
  return {
    /** Marks the store busy while `work` runs. */
    tracked(work: Promise<void>): Promise<void> {
      running++
      return work.finally(() => running--)
    },
    /** Whether no seeding or reset is in progress. */
    settled: (): boolean => running === 0,
    check: { name: 'store', notReady: () => (running > 0 ? 'seeding the pets' : undefined) } satisfies ReadinessCheck,
  }
}
