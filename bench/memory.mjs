// Resident memory of a sandbox with 100000 pets, in a fresh process (run with --expose-gc): the
// library and msw loaded first as the baseline, then the seeded sandbox after one request (which
// loads prism for validation) and a full GC, then after a memory-reducing GC. Prints one JSON line.
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS } from './support.mjs'

const collect = () => {
  globalThis.gc?.()
  globalThis.gc?.()
}
collect()
const baselineRssBytes = process.memoryUsage().rss
const sandbox = createSandbox({ keys: BENCH_KEYS, pets: 100000 })
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
// memory pressure, gives it back: what is left is what the 100000 pets really hold.
globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' })
const reduced = process.memoryUsage()
server.close()
process.stdout.write(`${JSON.stringify({ pets: sandbox.pets.all().length, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, baselineRssBytes, rssAfterMemoryReducingGcBytes: reduced.rss })}\n`)
