import { createRandom } from '../../src/core/faults/create-random.js'

/**
 * The kill timings of a crash test, drawn from a seed that is printed, so a failure can be
 * replayed: `CRASH_SEED=<seed> npx vitest run persistence`. Without CRASH_SEED each run draws a
 * new seed, so the runs keep trying other moments.
 */
export function crashSeed(test: string): { seed: number; random: () => number } {
  const given = process.env.CRASH_SEED
  const seed =
    given !== undefined && given !== '' && Number.isSafeInteger(Number(given))
      ? Number(given)
      : Math.floor(Math.random() * 2 ** 31)
  console.log(`${test}: kill timings from seed ${seed} (CRASH_SEED=${seed} replays them)`)
  return { seed, random: createRandom(seed) }
}
