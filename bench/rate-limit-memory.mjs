// Heap per idle client address (run with --expose-gc): `count` distinct client addresses (first
// argument, default 240000) each send one request without a key through sandbox.fetch, as the
// per-address limit counts them (D16); then a minute passes on the sandbox clock and one more
// request lets the limiter tidy its buckets. The V8 heap in use after a full GC, before and after,
// and how long that request and one a minute later took (the limiter tidies on the first decision
// of each minute). Prints one JSON line; BENCHMARKS.md, "Rate-limit memory per client address".
import { createSandbox } from '../dist/index.js'

const count = Number(process.argv[2] ?? 240000)
const heap = () => {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}
// Half-way through a UTC day, so that the measured minute does not end the day.
const sandbox = createSandbox({ pets: 0, now: () => Date.UTC(2030, 0, 1, 12, 0, 30) })
await sandbox.ready()
const ask = async (address) => {
  const response = await sandbox.fetch('http://sandbox.test/v1/pets', {
    headers: { 'x-sandbox-client-address': address },
  })
  if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`)
  await response.arrayBuffer()
}
// Addresses of the form 10.x.y.z, as a server reads them from its sockets.
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

// 5000 requests from other clients first, on the day before, so that the request log's and
// kept exchanges' bounded buffers are as full before as after: only the buckets differ.
await sandbox.clock.set('2029-12-31T12:00:30Z')
for (let i = 0; i < 5000; i++) await ask(`192.168.${i >> 8}.${i & 255}`)
await sandbox.clock.set('2030-01-01T12:00:30Z')
await ask('172.16.0.1')
const before = heap()
for (let i = 0; i < count; i++) await ask(address(i))
const timed = async (address) => {
  const start = performance.now()
  await ask(address)
  return Math.round((performance.now() - start) * 10) / 10
}
await sandbox.clock.advance(60_000)
const tidyMs = await timed('172.16.0.2')
const after = heap()
await sandbox.clock.advance(60_000)
const nextMinuteMs = await timed('172.16.0.3')
const quota = await sandbox.quota.ofAddress(address(0))
if (quota.day.used !== 1) throw new Error(`expected the first address's day count to be kept, got ${quota.day.used}`)
process.stdout.write(
  `${JSON.stringify({ addresses: count, heapBytesPerAddress: Math.round((after - before) / count), tidyMs, nextMinuteMs })}\n`,
)
