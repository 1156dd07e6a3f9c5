import { spawnSync } from 'node:child_process'
import type { Reporter } from 'vitest/node'

/**
 * What `npm test` needs from outside npm, one tier per program. A fresh clone runs `npm test` without
 * them: a missing tier is skipped with one line saying what and how to run it. CI lists the tiers it
 * must run in PETSTORE_REQUIRE_TIERS (`.ci/run`), and there a missing one fails the run instead.
 */
export interface Tier {
  /** Which tests, in words. */
  what: string
  /** The test files of the tier (globs as in vitest's `include`); tests elsewhere use `tierMissing` with `it.skipIf`. */
  files: string[]
  /** Why it cannot run here, or undefined when it can. */
  missing(): string | undefined
  /** The one command that makes it run. */
  howToRun: string
}

export const REQUIRE_TIERS = 'PETSTORE_REQUIRE_TIERS'

/** The `redis-server` the Redis tier starts (test/support/start-redis.ts). */
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? 'redis-server'

export const TIERS = {
  redis: {
    what: 'the Redis tier (test/e2e/redis-*.test.ts and one --workers test in stopping.test.ts)',
    files: ['test/e2e/redis-*.test.ts'],
    missing: () =>
      spawnSync(REDIS_SERVER, ['--version']).error === undefined
        ? undefined
        : process.env.REDIS_SERVER_PATH === undefined
          ? 'no redis-server on PATH'
          : `REDIS_SERVER_PATH=${REDIS_SERVER} does not run`,
    howToRun: 'apt-get install redis-server && npm test',
  },
} satisfies Record<string, Tier>

export type TierName = keyof typeof TIERS

const probed = new Map<TierName, string | undefined>()

/** Why the tier cannot run here (probed once per process), or undefined when it can: `it.skipIf(tierMissing('redis'))`. */
export function tierMissing(name: TierName): string | undefined {
  if (!probed.has(name)) probed.set(name, TIERS[name].missing())
  return probed.get(name)
}

/**
 * For vitest.config.ts: the files of the tiers that cannot run here, to exclude, and a reporter that
 * ends the run with one line per skipped tier. Throws when a tier that PETSTORE_REQUIRE_TIERS lists
 * (or `all`) is missing, so CI never skips one.
 */
export function planTiers(env: NodeJS.ProcessEnv = process.env): { exclude: string[]; reporter: Reporter } {
  const required = new Set((env[REQUIRE_TIERS] ?? '').split(',').map((name) => name.trim()))
  const lines: string[] = []
  const exclude: string[] = []
  for (const [name, tier] of Object.entries(TIERS) as [TierName, Tier][]) {
    const reason = tierMissing(name)
    if (reason === undefined) continue
    if (required.has(name) || required.has('all')) {
      throw new Error(`${REQUIRE_TIERS} requires ${name}, but ${reason}: ${tier.howToRun.replace(/ && npm test$/, '')}`)
    }
    exclude.push(...tier.files)
    lines.push(`Skipped ${tier.what}: ${reason}. To run it: ${tier.howToRun}`)
  }
  return {
    exclude,
    reporter: {
      onTestRunEnd() {
        for (const line of lines) console.log(line)
      },
    },
  }
}
