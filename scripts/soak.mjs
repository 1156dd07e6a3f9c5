#!/usr/bin/env node
// npm run soak [-- --seconds 30 --warmup 15 --connections 200 --crash-seconds 10]
//
// Soaks the real CLI (a child process on 127.0.0.1, port 0) with mixed traffic from keep-alive
// connections: list, create, get, 401 (no key) and 429 (a Free key far over its limit). Then
// checks what docs/reliability.md promises: no 5xx, no socket errors, every status the expected one, the
// server's memory flat after warm-up (the V8 heap after a full GC grows under 20% once the memory of
// the pets stored meanwhile, measured in the same run, is taken out; RSS is reported beside it),
// and every acknowledged pet retrievable with unique ids. Then the crash half
// (scripts/soak-restarts.mjs): --state under SIGKILL at random moments, for --crash-seconds
// (default a third of --seconds). Prints summary tables and exits 1 when a check fails. Loopback only, bounded.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    // V8 grows its heap for the first ten-odd seconds of this load before RSS levels off.
    warmup: { type: 'string', default: '15' },
    connections: { type: 'string', default: '200' },
    'crash-seconds': { type: 'string' },
  },
})
const SECONDS = Number(values.seconds)
const WARMUP = Number(values.warmup)
const CONNECTIONS = Number(values.connections)
const CRASH_SECONDS =
  values['crash-seconds'] === undefined ? Math.max(5, Math.round(SECONDS / 3)) : Number(values['crash-seconds'])
if (
  !(SECONDS > 0 && SECONDS <= 600) ||
  !(WARMUP >= 0 && WARMUP <= 600) ||
  !(CONNECTIONS > 0 && CONNECTIONS <= 1000) ||
  !(CRASH_SECONDS >= 0 && CRASH_SECONDS <= 600)
) {
  console.error('usage: soak [--seconds 1..600] [--warmup 0..600] [--connections 1..1000] [--crash-seconds 0..600]')
  process.exit(2)
}

const BULK_KEY = 'soak-enterprise-key'
const FREE_KEY = 'soak-free-key'
// Share of each kind of request, out of 100.
/** @type {Array<[string, number]>} */
const MIX = [
  ['list', 40],
  ['get', 25],
  ['create', 20],
  ['unauthorized', 10],
  ['rateLimited', 5],
]
// Requests without a valid key are limited per client address (D16, Free: 60 a minute): the 401
// share comes from many loopback addresses, each used at most this often, so it stays 401s.
const PER_ADDRESS = 50

const dir = await mkdtemp(join(tmpdir(), 'petstore-soak-'))
const keysFile = join(dir, 'keys.json')
await writeFile(
  keysFile,
  JSON.stringify({
    keys: [
      { key: BULK_KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000 },
      { key: FREE_KEY, plan: 'free' },
    ],
  }),
)

const bin = new URL('../bin/petstore-sandbox.js', import.meta.url).pathname

// Leaks are judged on the V8 heap after a full garbage collection, read over the inspector
// protocol (the server runs with --inspect on a loopback port): RSS mostly follows how far V8 has
// grown its heap under this load (heapTotal 200-300 MB around 30-50 MB in use), which differs from
// run to run and says nothing of what is retained. RSS is still reported.
async function inspect(process) {
  const wsUrl = await new Promise((resolve, reject) => {
    let output = ''
    process.stderr.on('data', (chunk) => {
      output += chunk
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(output)
      if (match) resolve(match[1])
    })
    process.once('exit', (code) => reject(new Error(`the CLI exited with ${code}:\n${output}`)))
  })
  const socket = new WebSocket(wsUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', reject, { once: true })
  })
  let nextId = 1
  const pending = new Map()
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data))
    pending.get(message.id)?.(message.result)
    pending.delete(message.id)
  })
  const call = (method) =>
    new Promise((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      socket.send(JSON.stringify({ id, method }))
    })
  return {
    /** MB of V8 heap in use right after a full collection. */
    async heapAfterGcMb() {
      await call('HeapProfiler.collectGarbage')
      const { usedSize } = await call('Runtime.getHeapUsage')
      return usedSize / 2 ** 20
    },
    close: () => socket.close(),
  }
}
const INSPECT = '--inspect=127.0.0.1:0'

// The store grows by every create: that memory is data, not a leak. What one created pet holds is
// measured here, in this run: the heap of a CLI with no pets, before and after PET_PROBE creates of
// the same shape as the soak's. Seeded pets would not do: their names are shorter, and the
// difference alone outgrew the margin over a long run (docs/reliability.md#the-soak).
const PET_PROBE = 20_000
async function heapPerCreatedPetMb() {
  const probe = spawn(
    process.execPath,
    [INSPECT, bin, 'start', '--port', '0', '--log', 'off', '--pets', '0', '--keys', keysFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const inspector = await inspect(probe)
  let output = ''
  const url = await new Promise((resolve, reject) => {
    probe.stdout.on('data', (chunk) => {
      output += chunk
      const match = /Listening on (http:\/\/\S+\/v1)/.exec(output)
      if (match) resolve(match[1])
    })
    probe.once('exit', (code) => reject(new Error(`the probe CLI exited with ${code}`)))
  })
  const create = (i) =>
    fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BULK_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Soak ${100_000_000 + i}`, categoryId: 1 + (i % 9), status: 'pending' }),
    }).then((response) => response.arrayBuffer())
  // A warm-up first, so that what the first few thousand requests set up once is not counted per pet.
  for (let i = 0; i < PET_PROBE / 4; i += 50)
    await Promise.all(Array.from({ length: 50 }, (_, j) => create(1_000_000 + i + j)))
  const before = await inspector.heapAfterGcMb()
  for (let i = 1; i <= PET_PROBE; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => create(i + j)))
  const after = await inspector.heapAfterGcMb()
  inspector.close()
  probe.kill('SIGTERM')
  await new Promise((resolve) => probe.once('exit', resolve))
  return Math.max(0, (after - before) / PET_PROBE)
}
const perPetMb = await heapPerCreatedPetMb()
const child = spawn(process.execPath, [INSPECT, bin, 'start', '--port', '0', '--log', 'off', '--keys', keysFile], {
  stdio: ['ignore', 'pipe', 'pipe'],
})
const inspector = await inspect(child)
let childOutput = ''
child.stderr.on('data', (chunk) => (childOutput += chunk))
const base = await new Promise((resolve, reject) => {
  child.stdout.on('data', (chunk) => {
    childOutput += chunk
    const match = /Listening on (http:\/\/\S+\/v1)/.exec(childOutput)
    if (match) resolve(new URL(match[1]))
  })
  child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}:\n${childOutput}`)))
})

// FIFO, so every pooled connection keeps being used: with LIFO a connection can sit idle past the
// server's keep-alive timeout (5 s) and be reused just as the server closes it, an ECONNRESET that
// is the client's race, not the server's fault.
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS, scheduling: 'fifo' })
const stats = {
  requests: 0,
  byKind: Object.fromEntries(MIX.map(([kind]) => [kind, 0])),
  statuses: {},
  serverErrors: 0,
  socketErrors: 0,
  unexpected: [],
  latencies: [],
}
const acknowledged = new Map()
let unauthorizedSent = 0

/** @param {{ method: string, path: string, key?: string, body?: string, localAddress?: string, useAgent?: import('node:http').Agent }} request */
function send({ method, path, key, body, localAddress, useAgent = agent }) {
  return new Promise((resolve, reject) => {
    const headers = { host: base.host }
    if (key) headers.authorization = `Bearer ${key}`
    if (body) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = Buffer.byteLength(body)
    }
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: `/v1${path}`,
        headers,
        agent: useAgent,
        ...(localAddress ? { localAddress } : {}),
      },
      (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

// A small deterministic generator, so two runs send the same mix.
function random(seed) {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4294967296
  }
}

function pick(next) {
  let roll = next() * 100
  for (const [kind, share] of MIX) {
    roll -= share
    if (roll < 0) return kind
  }
  return MIX[0][0]
}

const unauthorizedAgent = new Agent({ keepAlive: false })
function requestFor(kind, next) {
  switch (kind) {
    case 'list':
      return {
        expect: [200],
        method: 'GET',
        path: `/pets?limit=${1 + Math.floor(next() * 20)}${next() < 0.3 ? '&status=available' : ''}`,
        key: BULK_KEY,
      }
    case 'get': {
      const id = 1 + Math.floor(next() * 50)
      return { expect: [200], method: 'GET', path: `/pets/${id}`, key: BULK_KEY }
    }
    case 'create':
      return {
        expect: [201],
        method: 'POST',
        path: '/pets',
        key: BULK_KEY,
        body: JSON.stringify({
          name: `Soak ${Math.floor(next() * 1e9)}`,
          categoryId: 1 + Math.floor(next() * 9),
          status: 'pending',
        }),
      }
    case 'unauthorized': {
      const n = Math.floor(unauthorizedSent++ / PER_ADDRESS)
      const localAddress = `127.${1 + (Math.floor(n / 250) % 250)}.${Math.floor(n / 62_500) % 250}.${2 + (n % 250)}`
      return {
        expect: [401],
        method: 'GET',
        path: '/pets',
        key: next() < 0.5 ? undefined : 'not-a-key',
        localAddress,
        useAgent: unauthorizedAgent,
      }
    }
    default:
      return { expect: [200, 429], method: 'GET', path: '/pets?limit=1', key: FREE_KEY }
  }
}

// RSS of the server process, sampled through the run.
const samples = []
function sampleRss() {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
    if (match)
      samples.push({ at: performance.now() - started, rssMb: Number(match[1]) / 1024, pets: acknowledged.size })
  } catch {
    // The process is gone: the checks below report it.
  }
}

const started = performance.now()
const measuredFrom = WARMUP * 1000
const deadline = started + (WARMUP + SECONDS) * 1000
const sampler = setInterval(sampleRss, 250)
// The heap in use once the warm-up is over, and the pets stored by then.
const heapAtWarmup = new Promise((resolve) =>
  setTimeout(() => {
    const pets = acknowledged.size
    inspector.heapAfterGcMb().then((heapMb) => resolve({ heapMb, pets }))
  }, measuredFrom),
)
sampleRss()

await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, worker) => {
    const next = random(worker * 7919 + 17)
    while (performance.now() < deadline) {
      const kind = pick(next)
      const spec = requestFor(kind, next)
      const sentAt = performance.now()
      try {
        const { status, body } = await send(spec)
        stats.latencies.push(performance.now() - sentAt)
        stats.requests++
        stats.byKind[kind]++
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1
        if (status >= 500) stats.serverErrors++
        if (!spec.expect.includes(status)) {
          if (stats.unexpected.length < 20)
            stats.unexpected.push(`${spec.method} ${spec.path} -> ${status} ${body.slice(0, 200)}`)
        } else if (status === 201) {
          const pet = JSON.parse(body)
          if (acknowledged.has(pet.id)) stats.unexpected.push(`id ${pet.id} acknowledged twice`)
          acknowledged.set(pet.id, body)
        }
      } catch (error) {
        stats.socketErrors++
        if (stats.unexpected.length < 20)
          stats.unexpected.push(`${spec.method} ${spec.path}: ${error.code ?? error.message}`)
      }
    }
  }),
)
clearInterval(sampler)
const heapStart = await heapAtWarmup
const heapEnd = { heapMb: await inspector.heapAfterGcMb(), pets: acknowledged.size }
inspector.close()
sampleRss()
const elapsed = (performance.now() - started) / 1000 - WARMUP

// Every acknowledged pet, read back: same body as its 201, ids unique.
let checked = 0
let missing = 0
const ids = [...acknowledged.keys()]
await Promise.all(
  Array.from({ length: 50 }, async (_, lane) => {
    for (let i = lane; i < ids.length; i += 50) {
      const id = ids[i]
      const { status, body } = await send({ method: 'GET', path: `/pets/${id}`, key: BULK_KEY })
      checked++
      if (status !== 200 || body !== acknowledged.get(id)) {
        missing++
        if (stats.unexpected.length < 40) stats.unexpected.push(`pet ${id}: ${status} ${body.slice(0, 200)}`)
      }
    }
  }),
)
const uniqueIds = new Set(ids).size === ids.length

agent.destroy()
unauthorizedAgent.destroy()
child.kill('SIGTERM')
const exitCode = await new Promise((resolve) => child.once('exit', (code) => resolve(code)))
await rm(dir, { recursive: true, force: true })

// Memory: after the warm-up, the median RSS of the first fifth of the measured run is the
// baseline, compared with the median of the last fifth.
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}
const total = SECONDS * 1000
const measured = samples
  .map((s) => ({ at: s.at - measuredFrom, rssMb: s.rssMb, pets: s.pets }))
  .filter((s) => s.at >= 0)
const baseline = median(measured.filter((s) => s.at < total / 5).map((s) => s.rssMb))
const final = median(measured.filter((s) => s.at >= (total * 4) / 5).map((s) => s.rssMb))
const peak = Math.max(...measured.map((s) => s.rssMb))
const growth = final / baseline - 1
// The same comparison with what the pets stored in between hold taken out: flat means no leak.
const storedMeanwhile = heapEnd.pets - heapStart.pets
const storeMb = perPetMb * storedMeanwhile
const heapGrowth = heapEnd.heapMb / heapStart.heapMb - 1
const netGrowth = (heapEnd.heapMb - storeMb) / heapStart.heapMb - 1
const latencies = stats.latencies.sort((a, b) => a - b)
const percentile = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN

const checks = [
  ['no 5xx', stats.serverErrors === 0],
  ['no socket errors', stats.socketErrors === 0],
  ['every status the expected one', stats.unexpected.length === 0],
  ['heap after GC grows under 20% after warm-up, net of the pets stored meanwhile', netGrowth < 0.2],
  ['every acknowledged pet retrievable', missing === 0 && checked === ids.length],
  ['ids unique', uniqueIds],
  ['server exits 0 on SIGTERM', exitCode === 0],
]
const fmt = (n, digits = 1) => n.toFixed(digits)
console.log(`
Soak: ${CONNECTIONS} connections for ${fmt(elapsed)} s after a ${WARMUP} s warm-up, against petstore-sandbox on ${base.host}
| figure | value |
|---|---|
| requests (warm-up included) | ${stats.requests} (${fmt(stats.requests / (elapsed + WARMUP), 0)}/s): ${Object.entries(
  stats.byKind,
)
  .map(([kind, n]) => `${kind} ${n}`)
  .join(', ')} |
| statuses | ${Object.entries(stats.statuses)
  .map(([status, n]) => `${status}: ${n}`)
  .join(', ')} |
| 5xx / socket errors / unexpected | ${stats.serverErrors} / ${stats.socketErrors} / ${stats.unexpected.length} |
| latency p50 / p99 | ${fmt(percentile(0.5))} ms / ${fmt(percentile(0.99))} ms |
| server RSS after warm-up / at the end / peak of the measured run | ${fmt(baseline)} MB / ${fmt(final)} MB (${growth >= 0 ? '+' : ''}${fmt(growth * 100)}%) / ${fmt(peak)} MB |
| V8 heap after a full GC, after warm-up / at the end | ${fmt(heapStart.heapMb)} MB / ${fmt(heapEnd.heapMb)} MB (${heapGrowth >= 0 ? '+' : ''}${fmt(heapGrowth * 100)}%) |
| of which the pets stored meanwhile | ${storedMeanwhile} pets x ${fmt(perPetMb * 1024)} kB (measured: heap of a CLI before and after ${PET_PROBE} creates) = ${fmt(storeMb)} MB; net growth ${netGrowth >= 0 ? '+' : ''}${fmt(netGrowth * 100)}% |
| server RSS at each tenth of the measured run | ${Array.from({ length: 10 }, (_, i) => fmt(median(measured.filter((s) => s.at >= (i * total) / 10 && s.at < ((i + 1) * total) / 10).map((s) => s.rssMb)), 0)).join(' ')} MB |
| pets created and checked | ${ids.length} acknowledged, ${checked} read back, ${missing} missing or different, ids ${uniqueIds ? 'unique' : 'NOT unique'} |
`)
for (const line of stats.unexpected) console.log(`  ${line}`)
for (const [name, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`)
const crashed =
  CRASH_SECONDS === 0
    ? 0
    : await new Promise((resolve) =>
        spawn(
          process.execPath,
          [new URL('./soak-restarts.mjs', import.meta.url).pathname, '--seconds', String(CRASH_SECONDS)],
          { stdio: 'inherit' },
        ).once('exit', resolve),
      )
process.exit(checks.every(([, ok]) => ok) && crashed === 0 ? 0 : 1)
