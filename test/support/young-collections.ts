import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

type Collect = (options?: { type: 'minor' | 'major' }) => void

// `gc` as `--expose-gc` gives it, in a context made after the flag is set. Without pretenuring, what a test allocates
// starts young whatever survived before, so the growth is what the structure under test kept.
setFlagsFromString('--expose-gc')
setFlagsFromString('--no-allocation-site-pretenuring')
const collect = runInNewContext('gc') as Collect

const oldSpaceUsed = (): number =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size

/**
 * Returns by how many bytes the old generation grew while `run` ran, after a full collection moved what lives
 * now into it; `run` is handed `young`, a young-generation collection alone.
 */
export function oldGenerationGrowth(run: (young: () => void) => void): number {
  collect({ type: 'major' })
  const before = oldSpaceUsed()
  run(() => collect({ type: 'minor' }))
  return oldSpaceUsed() - before
}

/** Returns a distinct flat string of about 2 KB: a payload whose every copy costs its own bytes. */
export const payload = (seed: number): string => JSON.stringify(Array.from({ length: 300 }, (_, k) => seed * 1000 + k))
