// Resident memory of a sandbox with `pets` pets (first argument, default 100000), in a fresh
// process (run with --expose-gc): the seeded sandbox after one request (which loads prism for
// validation) and a full GC, then after a memory-reducing GC. Prints one JSON line.
//
// No GC is forced before the sandbox is created. A host does not do that, and it changes what
// is measured: a full GC before seeding shifts when V8 grows its young generation, and whether
// the last growth lands before seeding ends moved this figure by 35 MB (185 against 220 MB, when
// every record still had a relation map of its own).
// The library's own share is found by running this with 0 pets beside it (bench/run.mjs).
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS } from './support.mjs'

const pets = Number(process.argv[2] ?? 100000)
const collect = () => {
  globalThis.gc?.()
  globalThis.gc?.()
}
const sandbox = createSandbox({ keys: BENCH_KEYS, pets })
await sandbox.ready()
const server = setupServer(...sandbox.handlers)
server.listen({ onUnhandledFrame: 'error' })
const response = await fetch('http://sandbox.test/v1/pets?limit=100', { headers: { authorization: AUTHORIZATION } })
if (response.status !== 200) throw new Error(`expected 200, got ${response.status}`)
await response.arrayBuffer()
collect()
const usage = process.memoryUsage()
// Seeding grows V8's young generation (every scavenge sees the new records survive), and V8
// keeps what it grew until memory gets scarce. A memory-reducing GC, the kind V8 runs under
// memory pressure, gives it back: what is left is what the pets really hold.
globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' })
const reduced = process.memoryUsage()
server.close()
process.stdout.write(
  `${JSON.stringify({ pets: sandbox.pets.all().length, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, rssAfterMemoryReducingGcBytes: reduced.rss })}\n`,
)
