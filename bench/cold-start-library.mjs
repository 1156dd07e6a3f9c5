#!/usr/bin/env node
// The cold cost a test file pays for the sandbox: a fresh Node process that imports the library
// and calls createSandbox(), measured beside msw's own import cost in the same run. Each probe is
// a new process (nothing cached in memory; the OS file cache is warm, as for a test run), and the
// probes take turns so machine load hits them alike. Medians, not means: the machine is shared.
//
//   npm run bench:cold                 (RUNS=15 by default; RUNS=31 npm run bench:cold for more)
//
// `measureColdStart({ runs })` returns the figures, for `npm run bench` to include.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))

/** The target in BENCHMARKS.md: what a test file pays before its first test, at most. */
export const TARGET_MS = 250

const LIBRARY_PROBE = `
    const t0 = performance.now()
    const { createSandbox } = await import('petstore-sandbox')
    const t1 = performance.now()
    const sandbox = createSandbox()
    await sandbox.ready()
    const t2 = performance.now()
    const { getResponse } = await import('msw')
    const response = await getResponse(sandbox.handlers, new Request('http://api.test/v1/pets?limit=1', { headers: { authorization: 'Bearer sandbox-free-key' } }))
    if (response?.status !== 200) throw new Error('first request failed: ' + response?.status)
    const t3 = performance.now()
    // The first refusal of the process, then warm ones: validation must not load anything late.
    const refuse = async () => {
      const started = performance.now()
      const refused = await getResponse(sandbox.handlers, new Request('http://api.test/v1/pets?limit=0', { headers: { authorization: 'Bearer sandbox-free-key' } }))
      if (refused?.status !== 400) throw new Error('refusal failed: ' + refused?.status)
      return performance.now() - started
    }
    const firstRefusal = await refuse()
    const warm = []
    for (let i = 0; i < 21; i++) warm.push(await refuse())
    warm.sort((a, b) => a - b)
    console.log(JSON.stringify({ import: t1 - t0, create: t2 - t1, ready: t2 - t0, firstResponse: t3 - t0, firstRefusal, warmRefusal: warm[10] }))`

// Each probe prints JSON timings in ms, measured from just before its first import. The library
// is imported by its package name (self-reference through "exports"), i.e. dist/, as users do.
const PROBES = {
  node: `console.log(JSON.stringify({}))`,
  msw: `
    const t0 = performance.now()
    await import('msw')
    await import('msw/node')
    console.log(JSON.stringify({ import: performance.now() - t0 }))`,
  // The store's library alone: most of it is es-toolkit/compat, a barrel of 336 modules.
  data: `
    const t0 = performance.now()
    await import('@msw/data')
    console.log(JSON.stringify({ import: performance.now() - t0 }))`,
  library: LIBRARY_PROBE,
}

/** Runs probe `name` in a fresh process in the package at `cwd` (this one by default); its timings in ms. */
export async function probe(name, cwd = root) {
  const started = performance.now()
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBES[name]], { cwd })
  return { ...JSON.parse(stdout.trim().split('\n').at(-1)), process: performance.now() - started }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Runs each probe `runs` times, in turns, and returns the medians in ms.
 *
 * @example
 * const figures = await measureColdStart({ runs: 9 })
 * figures.library.ready   // import + createSandbox() + ready(), median ms
 */
export async function measureColdStart({ runs = 15 } = {}) {
  const samples = { node: [], msw: [], data: [], library: [] }
  // One untimed round first: it fills the OS file cache as a previous test run would have.
  for (const name of Object.keys(samples)) await probe(name)
  for (let round = 0; round < runs; round++) {
    for (const name of Object.keys(samples)) samples[name].push(await probe(name))
  }
  const medianOf = (name, field) => median(samples[name].map((sample) => sample[field]))
  return {
    runs,
    node: process.version,
    target: TARGET_MS,
    /** A process that imports nothing: Node's own start-up, for reference. */
    bareProcess: medianOf('node', 'process'),
    msw: { import: medianOf('msw', 'import'), process: medianOf('msw', 'process') },
    /** `@msw/data` imported alone, in its own process. */
    data: { import: medianOf('data', 'import') },
    library: {
      import: medianOf('library', 'import'),
      create: medianOf('library', 'create'),
      /** import + createSandbox() + ready(): the figure held to the target. */
      ready: medianOf('library', 'ready'),
      /** ... + the first request answered (a valid one). */
      firstResponse: medianOf('library', 'firstResponse'),
      /** The first invalid request of the process, answered 400, and a warm one after it. */
      firstRefusal: medianOf('library', 'firstRefusal'),
      warmRefusal: medianOf('library', 'warmRefusal'),
      process: medianOf('library', 'process'),
    },
  }
}

function format(figures) {
  const ms = (value) => `${value.toFixed(0).padStart(5)} ms`
  const { library, msw } = figures
  const ratio = (value) => `${(value / msw.import).toFixed(1)}x msw`
  return [
    `cold start, median of ${figures.runs} fresh processes each (Node ${figures.node})`,
    `  msw import (msw + msw/node)                         ${ms(msw.import)}`,
    `  petstore-sandbox import                             ${ms(library.import)}   ${ratio(library.import)}`,
    `    (@msw/data alone, in its own process               ${ms(figures.data.import)})`,
    `  petstore-sandbox import + createSandbox() + ready() ${ms(library.ready)}   ${ratio(library.ready)}, target ${figures.target} ms: ${library.ready <= figures.target ? 'met' : 'MISSED'}`,
    `    of which createSandbox() + ready()                ${ms(library.create)}`,
    `  ... + first response                                ${ms(library.firstResponse)}   ${ratio(library.firstResponse)}`,
    `  first refusal (400) of the process                  ${ms(library.firstRefusal)}   warm: ${ms(library.warmRefusal).trim()}, ${(library.firstRefusal - library.warmRefusal).toFixed(1)} ms more, target 50 ms: ${library.firstRefusal - library.warmRefusal <= 50 ? 'met' : 'MISSED'}`,
    `  whole process: bare node ${ms(figures.bareProcess).trim()}, msw ${ms(msw.process).trim()}, sandbox to first response ${ms(library.process).trim()}`,
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await measureColdStart({ runs: Number(process.env.RUNS ?? 15) })
  console.log(format(figures))
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures))
}
