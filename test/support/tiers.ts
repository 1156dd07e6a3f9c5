import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Reporter } from 'vitest/node'

/**
 * What `npm test` and `npm run test:browser` need from outside npm, one tier per program. A fresh clone
 * runs them without: a missing tier is skipped with one line saying what and how to run it. CI lists
 * the tiers it must run in PETSTORE_REQUIRE_TIERS (`.ci/run`), and there a missing one fails the run instead.
 */
export interface Tier {
  /** Which tests, in words. */
  what: string
  /** The test files of the tier (globs as in vitest's `include`); tests elsewhere use `tierMissing` with `it.skipIf`. */
  files: string[]
  /** Why it cannot run here, or undefined when it can. */
  missing(): string | undefined
  /** What to install first, if anything. */
  install?: string
  /** Whether it needs root. */
  asRoot?: boolean
}

/** The tiers of each test command: `npm test` (vitest.config.ts) and `npm run test:browser` (vitest.browser.config.ts). */
export const COMMANDS = {
  'npm test': ['redis', 'cluster', 'tmpfs'],
  'npm run test:browser': ['firefox', 'redis'],
} as const satisfies Record<string, readonly TierName[]>

export type TestCommand = keyof typeof COMMANDS

export const REQUIRE_TIERS = 'PETSTORE_REQUIRE_TIERS'

/** The `redis-server` the Redis tier starts (test/support/start-redis.ts). */
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? 'redis-server'

/** The `redis-cli` the cluster tier makes its cluster with (test/support/start-redis-cluster.ts), beside REDIS_SERVER. */
export const REDIS_CLI = process.env.REDIS_CLI_PATH ?? 'redis-cli'

/** The Firefox the Firefox tier drives (test/support/launch-firefox.ts): Debian's ESR. */
export const FIREFOX = process.env.FIREFOX_PATH ?? 'firefox-esr'

export const TIERS = {
  redis: {
    what: 'the Redis tier (test/e2e/redis-*.test.ts, test/browser/redis-*.test.ts and one --workers test in stopping.test.ts)',
    files: ['test/e2e/redis-*.test.ts', 'test/browser/redis-*.test.ts'],
    missing: () => redisServerMissing(),
    install: 'apt-get install redis-server',
  },
  cluster: {
    what: 'the Redis Cluster tier (test/e2e/cluster-*.test.ts: a cluster of 6 redis-server nodes made by redis-cli)',
    files: ['test/e2e/cluster-*.test.ts'],
    missing: (): string | undefined =>
      redisServerMissing() ??
      (spawnSync(REDIS_CLI, ['--version']).error === undefined
        ? undefined
        : process.env.REDIS_CLI_PATH === undefined
          ? 'no redis-cli on PATH'
          : `REDIS_CLI_PATH=${REDIS_CLI} does not run`),
    install: 'apt-get install redis-server',
  },
  tmpfs: {
    what: 'the full-disk test (test/e2e/full-disk.test.ts: a --state file on a 640 KiB tmpfs)',
    files: ['test/e2e/full-disk.test.ts'],
    missing: () => (canMountTmpfs() ? undefined : 'cannot mount a tmpfs here (it needs root)'),
    asRoot: true,
  },
  firefox: {
    what: "Firefox's network panel opening the sandbox's HAR (test/browser/har-in-firefox.test.ts)",
    files: ['test/browser/har-in-firefox.test.ts'],
    missing: () =>
      spawnSync(FIREFOX, ['--version']).error === undefined
        ? undefined
        : process.env.FIREFOX_PATH === undefined
          ? 'no firefox-esr on PATH'
          : `FIREFOX_PATH=${FIREFOX} does not run`,
    install: 'apt-get install firefox-esr',
  },
} satisfies Record<string, Tier>

/** Why REDIS_SERVER does not run, or undefined when it does. */
function redisServerMissing(): string | undefined {
  if (spawnSync(REDIS_SERVER, ['--version']).error === undefined) return undefined
  return process.env.REDIS_SERVER_PATH === undefined
    ? 'no redis-server on PATH'
    : `REDIS_SERVER_PATH=${REDIS_SERVER} does not run`
}

/** Mounts and unmounts a tiny tmpfs, as full-disk.test.ts does for real. */
function canMountTmpfs(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-tier-probe-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' })
    execFileSync('umount', [dir], { stdio: 'ignore' })
    return true
  } catch {
    return false
  } finally {
    rmdirSync(dir)
  }
}

export type TierName = keyof typeof TIERS

const probed = new Map<TierName, string | undefined>()

/** Why the tier cannot run here (probed once per process), or undefined when it can: `it.skipIf(tierMissing('redis'))`. */
export function tierMissing(name: TierName): string | undefined {
  if (!probed.has(name)) probed.set(name, TIERS[name].missing())
  return probed.get(name)
}

/** The one command that runs the given tiers too. */
export function howToRun(tiers: Tier[], command: TestCommand = 'npm test'): string {
  // Once each: the Redis and cluster tiers need the same package.
  const installs = [...new Set(tiers.flatMap((tier) => (tier.install === undefined ? [] : [tier.install])))]
  return [...installs, `${tiers.some((tier) => tier.asRoot) ? 'sudo ' : ''}${command}`].join(' && ')
}

/**
 * For a vitest config: the files of the command's tiers that cannot run here, to exclude, and a
 * reporter that ends the run with one line saying what was skipped and the command that runs it.
 * Throws when a tier that PETSTORE_REQUIRE_TIERS lists (or `all`) is missing, so CI never skips one.
 */
export function planTiers(
  command: TestCommand = 'npm test',
  env: NodeJS.ProcessEnv = process.env,
): { exclude: string[]; reporter: Reporter } {
  const required = new Set((env[REQUIRE_TIERS] ?? '').split(',').map((name) => name.trim()))
  const skipped: { tier: Tier; reason: string }[] = []
  for (const name of COMMANDS[command]) {
    const tier: Tier = TIERS[name]
    const reason = tierMissing(name)
    if (reason === undefined) continue
    if (required.has(name) || required.has('all')) {
      throw new Error(
        `${REQUIRE_TIERS} requires ${name}, but ${reason}${tier.install === undefined ? '' : `: ${tier.install}`}`,
      )
    }
    skipped.push({ tier, reason })
  }
  const line =
    skipped.length === 0
      ? undefined
      : `Skipped ${skipped.map(({ tier, reason }) => `${tier.what}: ${reason}`).join('; ')}. To run ${skipped.length === 1 ? 'it' : 'them'}: ${howToRun(
          skipped.map(({ tier }) => tier),
          command,
        )}`
  return {
    exclude: skipped.flatMap(({ tier }) => tier.files),
    reporter: {
      onTestRunEnd() {
        if (line !== undefined) console.log(line)
      },
    },
  }
}
