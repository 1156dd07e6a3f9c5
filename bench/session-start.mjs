// The time to make a session, in-process (BENCHMARKS.md, "Sessions"): a sandbox with 100000
// start-up pets and a session `source` that created 10 pets; then `samples` times (first argument,
// default 200), in turn, the order rotating: a fork (`sandbox.sessions.put('fork-<i>', { from:
// 'source' })`), the first listing in a session never used before (`sandbox.fetch` naming it), and
// a listing in `source`. Prints one JSON line of percentiles in ms, of wall and of CPU time.
import { createSandbox } from '../dist/index.js'
import { AUTHORIZATION, BENCH_KEYS, percentile } from './support.mjs'

const samples = Number(process.argv[2] ?? 200)
const PETS = 100000
const sandbox = createSandbox({ keys: BENCH_KEYS, pets: PETS, sessions: { max: 2 * samples + 100 } })
await sandbox.ready()
const ask = async (session, path = '/v1/pets?limit=20', init = {}) => {
  const response = await sandbox.fetch(`http://sandbox.test${path}`, {
    ...init,
    headers: { authorization: AUTHORIZATION, 'x-sandbox-session': session, 'content-type': 'application/json' },
  })
  if (!response.ok) throw new Error(`${session} ${path}: ${response.status}`)
  await response.arrayBuffer()
}
// Wall time, and the process's CPU time, which other processes on the machine hardly move.
const timed = async (work) => {
  const cpu = process.cpuUsage()
  const began = performance.now()
  await work()
  const wall = performance.now() - began
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / 1000 }
}
for (let i = 0; i < 10; i++)
  await ask('source', '/v1/pets', {
    method: 'POST',
    body: JSON.stringify({ name: `Source ${i}`, categoryId: 1, status: 'available' }),
  })
const steps = {
  fork: (i) => timed(() => sandbox.sessions.put(`fork-${i}`, { from: 'source' })),
  firstUse: (i) => timed(() => ask(`first-${i}`)),
  warm: () => timed(() => ask('source')),
}
// Warm-up of each kind, not counted.
for (let i = 0; i < 50; i++) for (const step of Object.values(steps)) await step(`warm-${i}`)
const times = { fork: [], firstUse: [], warm: [] }
const names = Object.keys(steps)
for (let i = 0; i < samples; i++) {
  for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)])
    times[name].push(await steps[name](i))
}
await sandbox.close()
const summary = (timings) => {
  const wall = timings.map((t) => t.wall)
  const cpu = timings.map((t) => t.cpu)
  return {
    p50Ms: percentile(wall, 50),
    p95Ms: percentile(wall, 95),
    p99Ms: percentile(wall, 99),
    cpuP50Ms: percentile(cpu, 50),
    cpuP95Ms: percentile(cpu, 95),
  }
}
process.stdout.write(
  `${JSON.stringify({ pets: PETS, samples, fork: summary(times.fork), firstUse: summary(times.firstUse), warm: summary(times.warm) })}\n`,
)
