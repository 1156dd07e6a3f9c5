// A Redis Cluster beside one Redis (BENCHMARKS.md, "Sessions over a Redis Cluster"): HTTP throughput of
// one sandbox on one Redis, one on a cluster of 3 masters and 3 replicas, and two on that cluster
// (each given another node, the load split over both), `GET /v1/pets?limit=20` in 8 named sessions,
// in interleaved rounds; then Redis memory per session on the cluster (the masters' `used_memory`,
// a replica holds as much again), and the Redis calls per request of each kind (every master's
// MONITOR over a run of sequential requests, each script named). Arguments: rounds (default 3),
// seconds per round (default 3), sessions for the memory (default 300), requests per kind for the
// calls (default 200). Needs Debian's redis-server and redis-cli. Prints one JSON line.
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { Redis } from 'ioredis'
import { createSandbox } from '../dist/index.js'
import { REDIS_SCRIPTS } from '../dist/node/redis/redis-scripts.js'
import { connectRedisState } from '../dist/redis.js'
import {
  AUTHORIZATION,
  SANDBOX_BIN,
  answers200,
  freePort,
  median,
  spawnServer,
  startRedis,
  writeKeysFile,
} from './support.mjs'

const rounds = Number(process.argv[2] ?? 3)
const seconds = Number(process.argv[3] ?? 3)
const memorySessions = Number(process.argv[4] ?? 300)
const callsPerKind = Number(process.argv[5] ?? 200)
const LIST = '/v1/pets?limit=20'
const SESSIONS = Array.from({ length: 8 }, (_, index) => `bench-${index}`)
const CONNECTIONS = 48

const keysFile = writeKeysFile()
const single = await startRedis()
const cluster = await startCluster()
const running = []
try {
  const one = await startSandbox(single.url)
  const onCluster = await startSandbox(cluster.nodes[0].url)
  const second = await startSandbox(cluster.nodes[1].url)
  running.push(one, onCluster, second)
  const setups = {
    'one Redis, one sandbox': [one],
    'cluster, one sandbox': [onCluster],
    'cluster, two sandboxes': [onCluster, second],
  }
  const figures = Object.fromEntries(Object.keys(setups).map((name) => [name, []]))
  for (const origins of Object.values(setups)) await load(origins, 1)
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(setups)
    for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
      const rps = await load(setups[name], seconds)
      figures[name].push(Math.round(rps))
      process.stderr.write(`round ${round + 1}/${rounds} ${name}: ${Math.round(rps)} req/s\n`)
    }
  }
  const memory = await memoryPerSession(cluster)
  const calls = await callsPerRequest(cluster)
  process.stdout.write(
    `${JSON.stringify({
      throughput: Object.fromEntries(
        Object.entries(figures).map(([name, values]) => [name, { median: median(values), rounds: values }]),
      ),
      clusterOverOne: median(
        figures['cluster, one sandbox'].map((rps, index) => rps / figures['one Redis, one sandbox'][index]),
      ),
      twoOverOne: median(
        figures['cluster, two sandboxes'].map((rps, index) => rps / figures['one Redis, one sandbox'][index]),
      ),
      memory,
      calls,
    })}\n`,
  )
} finally {
  for (const server of running) await server.stop()
  await single.stop()
  await cluster.stop()
}

/** Each session (named in its header) read by its share of the connections, over every origin at once; answers req/s summed. */
async function load(origins, duration) {
  const runs = origins.flatMap((origin) =>
    SESSIONS.map((session) =>
      autocannon({
        url: `${origin.origin}${LIST}`,
        connections: Math.max(1, Math.round(CONNECTIONS / origins.length / SESSIONS.length)),
        duration,
        headers: { authorization: AUTHORIZATION, 'x-sandbox-session': session },
      }),
    ),
  )
  const results = await Promise.all(runs)
  const bad = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0)
  if (bad > 0) throw new Error(`${bad} requests were not answered 2xx`)
  return results.reduce((sum, result) => sum + result.requests.total / result.duration, 0)
}

async function startSandbox(url) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await spawnServer(
    [SANDBOX_BIN, 'start', '--port', String(port), '--log', 'off', '--keys', keysFile, '--redis', url],
    {
      ready: answers200(`${origin}${LIST}`),
    },
  )
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        if (server.child.exitCode !== null) return resolve()
        server.child.once('exit', () => resolve())
        server.child.kill('SIGTERM')
      }),
  }
}

/** Bytes per named session on the cluster's masters: read-only (one listing), then with 10 created pets. */
async function memoryPerSession({ nodes }) {
  const masters = nodes.slice(0, 3).map((node) => new Redis(node.url))
  const used = async () =>
    (
      await Promise.all(
        masters.map(async (client) => Number(/^used_memory:(\d+)/m.exec(await client.info('memory'))?.[1])),
      )
    ).reduce((a, b) => a + b, 0)
  const sandbox = createSandbox({
    shared: await connectRedisState({ url: nodes[0].url, prefix: 'memory:' }),
    pets: 1000,
    sessions: { max: memorySessions * 2 },
  })
  await sandbox.ready()
  const ask = async (session, init = {}) => {
    const response = await sandbox.fetch('http://sandbox.test/v1/pets', {
      ...init,
      headers: {
        authorization: 'Bearer sandbox-enterprise-key',
        'x-sandbox-session': session,
        'content-type': 'application/json',
      },
    })
    if (!response.ok) throw new Error(`${session}: ${response.status}`)
    await response.arrayBuffer()
  }
  // The default session's keys, and every group's request log ring full, first: only the sessions differ.
  for (let i = 0; i < 200; i++) await ask('default')
  for (let i = 0; i < 3000; i++) await ask(`warm-${i % 300}`)
  const before = await used()
  for (let i = 0; i < memorySessions; i++) await ask(`reader-${i}`)
  const afterReading = await used()
  for (let i = 0; i < memorySessions; i++) {
    for (let j = 0; j < 10; j++)
      await ask(`reader-${i}`, {
        method: 'POST',
        body: JSON.stringify({ name: `Pet ${j}`, categoryId: 1, status: 'available' }),
      })
  }
  const afterCreating = await used()
  await sandbox.close()
  for (const client of masters) client.disconnect()
  return {
    sessions: memorySessions,
    basePets: 1000,
    bytesPerReadOnlySession: Math.round((afterReading - before) / memorySessions),
    bytesPerSessionWith10Pets: Math.round((afterCreating - before) / memorySessions),
  }
}

/**
 * The Redis calls a request of each kind costs, by command (a script by its name), summed over every
 * master's MONITOR while `callsPerKind` requests of the kind run one after the other, divided by
 * their number. What is not a request's own shows as a fraction: the request log (one script per
 * group per 20 ms of traffic), the followers (once a second). A script and its WAIT go in one round trip.
 */
async function callsPerRequest({ nodes }) {
  const names = new Map(
    Object.entries(REDIS_SCRIPTS).map(([name, lua]) => [createHash('sha1').update(lua).digest('hex'), name]),
  )
  const sandbox = createSandbox({ shared: await connectRedisState({ url: nodes[0].url, prefix: 'calls:' }), pets: 100 })
  await sandbox.ready()
  const ask = async (path, session, init = {}) => {
    const response = await sandbox.fetch(`http://sandbox.test/v1${path}`, {
      ...init,
      headers: {
        authorization: 'Bearer sandbox-enterprise-key',
        'content-type': 'application/json',
        ...(session === undefined ? {} : { 'x-sandbox-session': session }),
      },
    })
    if (!response.ok) throw new Error(`${path}: ${response.status}`)
    await response.arrayBuffer()
  }
  const create = { method: 'POST', body: JSON.stringify({ name: 'Counted', categoryId: 1, status: 'available' }) }
  const kinds = {
    'list (GET /v1/pets?limit=20)': (session) => ask('/pets?limit=20', session),
    'get (GET /v1/pets/7)': (session) => ask('/pets/7', session),
    'create (POST /v1/pets)': (session) => ask('/pets', session, create),
  }
  // Each kind once before, so that every world, bucket and script exists and is loaded on its node.
  for (const run of Object.values(kinds)) for (const session of [undefined, 'counted']) await run(session)
  const watched = nodes.slice(0, 3).map((node) => new Redis(node.url))
  const monitors = await Promise.all(watched.map((client) => client.monitor()))
  let counting
  // What the sandbox sends (a round trip each, but a WAIT pipelined with its script); not the
  // commands the scripts run inside Redis (MONITOR shows those from `lua`).
  for (const monitor of monitors)
    monitor.on('monitor', (_time, args, from) => {
      if (counting === undefined || from === 'lua') return
      const command = String(args[0]).toLowerCase()
      // A script goes as EVAL the first time on each connection, as EVALSHA after.
      const sha = command === 'eval' ? createHash('sha1').update(String(args[1])).digest('hex') : String(args[1] ?? '')
      const name = command === 'evalsha' || command === 'eval' ? (names.get(sha) ?? command) : command
      counting.set(name, (counting.get(name) ?? 0) + 1)
    })
  const figures = {}
  for (const [kind, run] of Object.entries(kinds))
    for (const [label, session] of [
      ['default session', undefined],
      ['named session', 'counted'],
    ]) {
      counting = new Map()
      for (let i = 0; i < callsPerKind; i++) await run(session)
      // MONITOR's lines of the last requests arrive after their answers.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const per = Object.fromEntries(
        [...counting]
          .sort(([, a], [, b]) => b - a)
          .map(([name, count]) => [name, Number((count / callsPerKind).toFixed(3))]),
      )
      counting = undefined
      figures[`${kind}, ${label}`] = per
    }
  for (const client of [...monitors, ...watched]) client.disconnect()
  await sandbox.close()
  return { requestsPerKind: callsPerKind, perRequest: figures }
}

/** Six redis-server nodes made a cluster of 3 masters and 3 replicas by redis-cli, as the tests do. */
async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-cluster-'))
  const nodes = []
  for (let index = 0; index < 6; index++) {
    const port = await freePort()
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
      ].concat(['--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '2000']),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await new Promise((resolve) => {
      let output = ''
      child.stdout.on('data', (chunk) => {
        output += chunk
        if (output.includes('Ready to accept connections')) resolve(undefined)
      })
    })
    nodes.push({ url: `redis://127.0.0.1:${port}`, port, child })
  }
  execFileSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ],
    {
      stdio: 'ignore',
    },
  )
  // Settled once every node sees every range served with its replica.
  for (;;) {
    const whole = await Promise.all(
      nodes.map(async (node) => {
        const client = new Redis(node.url)
        try {
          const slots = /** @type {unknown[][]} */ (await client.call('CLUSTER', 'SLOTS'))
          const info = String(await client.call('CLUSTER', 'INFO'))
          return /cluster_state:ok/.test(info) && slots.every((range) => range.length >= 4)
        } finally {
          client.disconnect()
        }
      }),
    )
    if (whole.every(Boolean)) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    nodes,
    stop: async () => {
      await Promise.all(
        nodes.map(
          (node) =>
            new Promise((resolve) => {
              node.child.once('exit', resolve)
              node.child.kill('SIGKILL')
            }),
        ),
      )
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
