import fc from 'fast-check'
import { expect } from 'vitest'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'
import { WINDOW_MS } from '../../src/core/rate-limit/windows.js'
import type { QuotaChange, RateLimitBackend } from '../../src/core/state/rate-limit-backend.js'
import { fuzzSeed } from './request-arbitrary.js'

/** The limits and ban policy both limiters decide under: small, so windows fill and bans come within a run. */
export const LIMITS = { perMinute: 3, perDay: 5 }
export const POLICY = { banAfter: 2, banSeconds: 30 }

const step = fc.oneof(
  fc.record({ kind: fc.constant('take' as const), bucket: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('peek' as const), bucket: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
  // To the next minute's start exactly, where a window's end and the next one's start meet (D13).
  fc.record({ kind: fc.constant('boundary' as const) }),
  fc.record({
    kind: fc.constant('arrange' as const),
    bucket: fc.constantFrom('a', 'b'),
    change: fc.record(
      {
        remaining: fc.integer({ min: 0, max: 8 }),
        minuteRemaining: fc.integer({ min: 0, max: 8 }),
        dayRemaining: fc.integer({ min: 0, max: 8 }),
        banned: fc.oneof(fc.boolean(), fc.integer({ min: 1, max: 60 })),
      },
      { requiredKeys: [] },
    ),
  }),
)

/**
 * Holds `limiterOf`'s limiter to the in-memory one: the same generated sequences of requests,
 * arrangements and clock moves (minute boundaries among them) get the same decisions, headers and
 * quotas from both. `limiterOf` gets the shared clock and the run's number, to keep runs apart.
 */
export async function assertDecidesAsInMemory(
  what: string,
  limiterOf: (source: () => number, run: number) => RateLimitBackend,
  runs = Number(process.env.FUZZ_RUNS ?? 100),
): Promise<void> {
  const seed = fuzzSeed()
  console.log(`${what}: seed ${seed}, ${runs} runs (FUZZ_SEED=${seed} reproduces them)`)
  let run = 0
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 1_000_000_000 }),
      fc.array(step, { maxLength: 40 }),
      async (start, steps) => {
        // A time of its own per run, shared by both limiters; fresh buckets per run.
        let now = Date.UTC(2030, 0, 1) + start
        const source = () => now
        const memory = createRateLimiter({ now: source, ...POLICY })
        run++
        const other = limiterOf(source, run)
        const ids = { a: `run-${run}-a`, b: `run-${run}-b` }
        for (const next of steps) {
          if (next.kind === 'advance') {
            now += next.ms
            continue
          }
          if (next.kind === 'boundary') {
            now += WINDOW_MS.minute - (now % WINDOW_MS.minute)
            continue
          }
          const bucket = ids[next.bucket]
          if (next.kind === 'arrange') {
            const change = next.change as QuotaChange
            expect(await other.arrange(bucket, LIMITS, change)).toEqual(memory.arrange(bucket, LIMITS, change))
          } else {
            expect(await other[next.kind](bucket, LIMITS)).toEqual(memory[next.kind](bucket, LIMITS))
          }
          expect(await other.inspect(bucket, LIMITS)).toEqual(memory.inspect(bucket, LIMITS))
        }
      },
    ),
    { numRuns: runs, seed },
  )
}
