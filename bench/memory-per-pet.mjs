// Heap per created pet (run with --expose-gc): a sandbox with no seeded pets, then `count` pets
// created through sandbox.fetch as clients create them (first argument, default 100000), with
// names of a realistic length; the V8 heap in use after a full GC, before and after. Prints one
// JSON line; BENCHMARKS.md, "Memory per stored pet", reports it with the default --max-pets.
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS } from './support.mjs'

const count = Number(process.argv[2] ?? 100000)
const heap = () => {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}
const sandbox = createSandbox({ keys: BENCH_KEYS, pets: 0 })
await sandbox.ready()
const create = (i) =>
  sandbox.fetch('http://sandbox.test/v1/pets', {
    method: 'POST',
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Pet number ${i}`, categoryId: 1 + (i % 9), status: 'available' }),
  })
// One create first, so that what the first request loads is not counted as pets.
await create(0)
const before = heap()
for (let i = 1; i <= count; i += 100) {
  const batch = await Promise.all(Array.from({ length: Math.min(100, count - i + 1) }, (_, j) => create(i + j)))
  for (const response of batch) if (response.status !== 201) throw new Error(`expected 201, got ${response.status}`)
}
const after = heap()
const perPet = (after - before) / count
process.stdout.write(
  `${JSON.stringify({ created: count, heapBytesPerPet: Math.round(perPet), atDefaultMaxPetsMb: Math.round((perPet * 1_000_000) / 2 ** 20) })}\n`,
)
