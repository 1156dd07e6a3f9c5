// Latency at scale, in-process: GET /v1/pets?status=sold&limit=100 and POST /v1/pets against
// sandboxes holding 1000, 10000 and 100000 pets. The sizes alternate batch by batch; lists run
// before creates so the list figures see exactly the seeded sizes. Prints one JSON line.
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS, median, percentile } from './support.mjs'
import { setImmediate as nextTurn } from 'node:timers/promises'

const samples = Number(process.argv[2] ?? 2000)
const SIZES = [1000, 10000, 100000]
const BATCHES = 10
const sandboxes = new Map()
for (const size of SIZES) {
  const sandbox = createSandbox({ keys: BENCH_KEYS, pets: size })
  await sandbox.ready()
  sandboxes.set(size, sandbox)
}
const server = setupServer()
server.listen({ onUnhandledFrame: 'error' })

const list = () =>
  fetch('http://sandbox.test/v1/pets?status=sold&limit=100', { headers: { authorization: AUTHORIZATION } })
let created = 0
const create = () =>
  fetch('http://sandbox.test/v1/pets', {
    method: 'POST',
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Scale ${++created}`, categoryId: 3, status: 'sold' }),
  })

async function batch(send, count, expected) {
  const times = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const response = await send()
    await response.arrayBuffer()
    times.push(performance.now() - started)
    if (response.status !== expected) throw new Error(`expected ${expected}, got ${response.status}`)
    // A turn of the event loop between requests, as in bench/in-process.mjs (which says why).
    await nextTurn()
  }
  return times
}

const results = Object.fromEntries(SIZES.map((size) => [size, { list: [], create: [] }]))
for (const [kind, send, expected] of /** @type {Array<['list' | 'create', () => Promise<Response>, number]>} */ ([
  ['list', list, 200],
  ['create', create, 201],
])) {
  for (const size of SIZES) {
    server.resetHandlers(...sandboxes.get(size).handlers)
    await batch(send, 50, expected) // warm-up
  }
  for (let b = 0; b < BATCHES; b++) {
    for (const size of SIZES) {
      server.resetHandlers(...sandboxes.get(size).handlers)
      results[size][kind].push(...(await batch(send, Math.ceil(samples / BATCHES), expected)))
    }
  }
}
server.close()

const stats = (times) => ({
  p50Ms: percentile(times, 50),
  p99Ms: percentile(times, 99),
  meanMs: times.reduce((a, b) => a + b, 0) / times.length,
})
const bySize = Object.fromEntries(
  SIZES.map((size) => [size, { list: stats(results[size].list), create: stats(results[size].create) }]),
)
process.stdout.write(
  `${JSON.stringify({
    samples,
    sizes: SIZES,
    bySize,
    listP50Ratio: bySize[100000].list.p50Ms / bySize[1000].list.p50Ms,
    listP99Ratio: bySize[100000].list.p99Ms / bySize[1000].list.p99Ms,
    createP50Ratio: bySize[100000].create.p50Ms / bySize[1000].create.p50Ms,
    medianCheck: median(results[1000].list),
  })}\n`,
)
