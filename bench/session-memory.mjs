// Heap per session, in-process (run with --expose-gc; BENCHMARKS.md, "Sessions"): a sandbox with
// `pets` start-up pets (first argument, default 1000), then `count` named sessions (second, default
// 1000) that each list and get a pet (they only read), then the same sessions each creating
// `created` pets (third, default 10), beside one session that created as many. The V8 heap in use
// after full GCs at each step. Prints one JSON line.
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS } from './support.mjs'

const pets = Number(process.argv[2] ?? 1000)
const count = Number(process.argv[3] ?? 1000)
const created = Number(process.argv[4] ?? 10)
const heap = async () => {
  // Turns of the event loop between collections, so what fetches hold through WeakRefs and
  // FinalizationRegistry entries is gone before the heap is read (bench/in-process-retention.mjs).
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}
// The request log's ring at its default size, full before the first reading, so it holds as much
// before as after: only the sessions differ.
const sandbox = createSandbox({ keys: BENCH_KEYS, pets, sessions: { max: count + 10 } })
await sandbox.ready()
const ask = async (session, path, init = {}) => {
  const response = await sandbox.fetch(`http://sandbox.test${path}`, {
    ...init,
    headers: { authorization: AUTHORIZATION, 'x-sandbox-session': session, 'content-type': 'application/json' },
  })
  if (!response.ok) throw new Error(`${session} ${path}: ${response.status}`)
  await response.arrayBuffer()
}
const read = async (session) => {
  await ask(session, '/v1/pets?limit=20')
  await ask(session, '/v1/pets/1')
}
const create = (session, i) =>
  ask(session, '/v1/pets', {
    method: 'POST',
    body: JSON.stringify({ name: `Pet number ${i}`, categoryId: 1 + (i % 9), status: 'available' }),
  })

// One named session that read and created, so what the first session and request load is not counted.
await read('warm-up')
for (let j = 0; j < created; j++) await create('warm-up', j)
for (let i = 0; i < 300; i++) await read('default')
const before = await heap()
for (let i = 0; i < count; i++) await read(`reader-${i}`)
const afterReading = await heap()
for (let i = 0; i < count; i++) for (let j = 0; j < created; j++) await create(`reader-${i}`, j)
const afterCreating = await heap()
await sandbox.close()
process.stdout.write(
  `${JSON.stringify({
    pets,
    sessions: count,
    createdPerSession: created,
    heapBytesPerReadOnlySession: Math.round((afterReading - before) / count),
    // Over the one session (`warm-up`) already there before: what the other sessions and their pets add.
    heapBytesOverOneSessionWithCreatedPets: afterCreating - before,
  })}\n`,
)
