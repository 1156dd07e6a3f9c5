// The Redis rows of `npm run bench`: HTTP throughput of one process in memory, one process on
// Redis, and two workers on Redis (`--workers 2`), in interleaved rounds, with the Redis commands
// each request costs (from Redis's own count). Needs Debian's redis-server, as the tests do.
import { spawnSync } from 'node:child_process'
import { createConnection } from 'node:net'
import autocannon from 'autocannon'
import {
  AUTHORIZATION,
  SANDBOX_BIN,
  answers200,
  freePort,
  median,
  spawnServer,
  startRedis as startSharedRedis,
  summarizeRounds,
} from './support.mjs'

const LIST = '/v1/pets?limit=20'

/** @param {{ rounds: number, seconds: number, warmupSeconds: number, connections: number, keysFile: string, log: (line: string) => void }} plan */
export async function measureRedisThroughput(plan) {
  if (spawnSync('redis-server', ['--version']).error !== undefined)
    return { skipped: 'redis-server is not installed (apt-get install redis-server)' }
  const redis = await startRedis()
  const setups = {
    memory: [],
    redis: ['--redis', redis.url, '--redis-prefix', 'bench-one:'],
    workers: ['--redis', redis.url, '--redis-prefix', 'bench-two:', '--workers', '2'],
  }
  const running = {}
  const rounds = { memory: [], redis: [], workers: [] }
  try {
    for (const [name, args] of Object.entries(setups)) running[name] = await startSandbox(plan.keysFile, args)
    for (const name of Object.keys(setups)) await load(running[name].origin, plan.warmupSeconds, plan.connections)
    for (let round = 0; round < plan.rounds; round++) {
      const names = Object.keys(setups)
      const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
      for (const name of order) {
        const before = await redis.commands()
        const figure = await load(running[name].origin, plan.seconds, plan.connections)
        figure.redisCommandsPerRequest = ((await redis.commands()) - before) / figure.requests
        rounds[name].push(figure)
        plan.log(`  redis round ${round + 1}/${plan.rounds} ${name.padEnd(8)} ${figure.rps.toFixed(0)} req/s`)
      }
    }
  } finally {
    for (const server of Object.values(running)) await server.stop()
    await redis.stop()
  }
  const summary = summarizeRounds(rounds, ['redisCommandsPerRequest'])
  const ratio = (a, b) => median(rounds[a].map((f, i) => f.rps / rounds[b][i].rps))
  return {
    ...summary,
    ratios: { redisOverMemory: ratio('redis', 'memory'), workersOverMemory: ratio('workers', 'memory') },
  }
}

async function startSandbox(keysFile, args) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await spawnServer(
    [SANDBOX_BIN, 'start', '--port', String(port), '--log', 'off', '--keys', keysFile, ...args],
    {
      ready: answers200(`${origin}${LIST}`),
    },
  )
  return {
    origin,
    // SIGTERM, so a primary stops its workers too.
    stop: () =>
      new Promise((resolve) => {
        if (server.child.exitCode !== null) return resolve()
        server.child.once('exit', () => resolve())
        server.child.kill('SIGTERM')
      }),
  }
}

/** One autocannon run; throws when anything but 2xx came back, so a figure never hides errors. */
async function load(origin, seconds, connections) {
  const result = await autocannon({
    url: `${origin}${LIST}`,
    connections,
    duration: seconds,
    headers: { authorization: AUTHORIZATION },
  })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${origin}: ${bad} of ${result.requests.total} requests were not answered 2xx`)
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
  }
}

/** The bench's own redis-server (support.mjs), and how many scripts the sandboxes sent it. */
async function startRedis() {
  const redis = await startSharedRedis()
  const { port } = redis
  return {
    ...redis,
    /**
     * Commands the sandboxes sent so far: every one is a script (EVALSHA, or EVAL after a lost
     * script cache), counted by INFO commandstats; the commands inside a script are not round trips.
     */
    commands: () =>
      new Promise((resolve, reject) => {
        const socket = createConnection(port, '127.0.0.1')
        let reply = ''
        socket.on('data', (chunk) => {
          reply += chunk
          // A bulk reply: its length, then the text; whole once the text is in.
          const header = /^\$(\d+)\r\n/.exec(reply)
          if (header && Buffer.byteLength(reply) >= header[0].length + Number(header[1])) {
            socket.end()
            const calls = [...reply.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].filter(
              ([, name]) => name === 'evalsha' || name === 'eval',
            )
            resolve(calls.reduce((sum, [, , count]) => sum + Number(count), 0))
          }
        })
        socket.once('error', reject)
        socket.write('INFO commandstats\r\n')
      }),
  }
}
