export interface ReadinessCheck {
  name: string
  notReady(): string | undefined
  /** Notes something while it serves (a master without a replica). */
  detail?(): string | undefined
}

/** Answers `sandbox.readiness()` and `GET /readyz`. */
export interface Readiness {
  ready: boolean
  checks: Array<{ name: string; ready: boolean; reason?: string; detail?: string }>
}

/** Creates a readiness, ready when every check is, read afresh. */
export function createReadiness(checks: ReadinessCheck[] = []) {
  return {
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

/** Counts the store's seedings and resets, not ready while any runs. */
export function createStoreWork() {
  let running = 0
  return {
    tracked(work: Promise<void>): Promise<void> {
      running++
      return work.finally(() => running--)
    },
    settled: (): boolean => running === 0,
    check: { name: 'store', notReady: () => (running > 0 ? 'seeding the pets' : undefined) } satisfies ReadinessCheck,
  }
}
