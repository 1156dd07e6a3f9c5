// The sessions rows of `npm run bench` (BENCHMARKS.md, "Sessions"), over real HTTP against the CLI:
// - throughput with 100 active sessions (requests round-robin over 100 `X-Sandbox-Session` names)
//   beside one session, one session named by baggage and by a key bound to it beside it by the header, and beside
//   the default session (no header), one process, interleaved rounds;
// - the time to a fork (`PUT /__sandbox/sessions/{name}` `{ from }`) and to the first answer in a
//   session never used before, with 100000 start-up pets, beside a request in a session already there.
import autocannon from 'autocannon'
import {
  AUTHORIZATION,
  SANDBOX_BIN,
  answers200,
  cpuMs,
  freePort,
  median,
  percentile,
  spawnServer,
  summarizeRounds,
} from './support.mjs'

const LIST = '/v1/pets?limit=20'
const SESSIONS = 100
const ADMIN_TOKEN = 'bench-admin-token'

async function startSandbox(keysFile, args = []) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await spawnServer(
    [SANDBOX_BIN, 'start', '--port', String(port), '--log', 'off', '--keys', keysFile, ...args],
    {
      ready: answers200(`${origin}${LIST}`),
    },
  )
  return { ...server, origin }
}

// What each kind of load names: no session, one session, or 100 in turn. Every kind goes through
// setupRequest, so the load generator does the same work for each.
const KINDS = {
  default: () => ({}),
  one: () => ({ 'x-sandbox-session': 'bench-one' }),
  hundred: (n) => ({ 'x-sandbox-session': `bench-${n % SESSIONS}` }),
  // The same session named by W3C baggage among other members, as OpenTelemetry sends it (D43).
  baggage: () => ({ baggage: 'userId=bench,sandbox-session=bench-one;ttl=5,tenant=acme' }),
  // The same session named by nothing but a key bound to it (D46), as an app's server forwards a user's token.
  bound: () => ({ authorization: `Bearer ${boundKey}` }),
}
// Made for session bench-one once the throughput's sandbox is up.
let boundKey = ''

/** `list`: every request `GET /v1/pets?limit=20`; `mixed`: 70 % that, 15 % creates, 15 % gets (as run.mjs's mixed row). */
function requests(kind, workload) {
  let n = 0
  return [
    {
      setupRequest(request) {
        const headers = { ...request.headers, ...KINDS[kind](n++) }
        const draw = workload === 'list' ? 0 : Math.random()
        if (draw < 0.7) return { ...request, headers, method: 'GET', path: LIST }
        if (draw < 0.85) {
          return {
            ...request,
            method: 'POST',
            path: '/v1/pets',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Bench ${n}`, categoryId: 1 + (n % 5), status: 'available' }),
          }
        }
        return { ...request, headers, method: 'GET', path: `/v1/pets/${1 + Math.floor(Math.random() * 50)}` }
      },
    },
  ]
}

async function load(server, seconds, connections, kind, workload) {
  const cpuBefore = cpuMs(server.child.pid)
  const result = await autocannon({
    url: server.origin,
    connections,
    duration: seconds,
    headers: { authorization: AUTHORIZATION },
    requests: requests(kind, workload),
  })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${kind} ${workload}: ${bad} of ${result.requests.total} requests were not answered 2xx`)
  const cpuAfter = cpuMs(server.child.pid)
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : ((cpuAfter - cpuBefore) * 1000) / result.requests.total
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerRequest,
  }
}

/**
 * Throughput in the default session, in one named session and over 100 named sessions, all
 * against one CLI process: each round loads each kind in turn (the order rotating), listings then
 * the mixed load; ratios are medians of the per-round ratios.
 *
 * @param {{ rounds: number, seconds: number, warmupSeconds: number, connections: number, keysFile: string, log: (line: string) => void }} plan
 */
export async function measureSessionThroughput(plan) {
  const server = await startSandbox(plan.keysFile, ['--admin-token', ADMIN_TOKEN])
  const bound = await fetch(`${server.origin}/__sandbox/sessions/bench-one/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'enterprise', perMinute: 1_000_000_000_000, perDay: 1_000_000_000_000 }),
  })
  if (bound.status !== 201) throw new Error(`binding a key to bench-one answered ${bound.status}`)
  boundKey = (await bound.json()).key
  const runs = [
    ['default', 'list'],
    ['one', 'list'],
    ['baggage', 'list'],
    ['bound', 'list'],
    ['hundred', 'list'],
    ['one', 'mixed'],
    ['hundred', 'mixed'],
  ]
  const rounds = Object.fromEntries(runs.map(([kind, workload]) => [`${kind}-${workload}`, []]))
  try {
    for (const [kind, workload] of runs) await load(server, plan.warmupSeconds, plan.connections, kind, workload)
    for (let round = 0; round < plan.rounds; round++) {
      const order = [...runs.slice(round % runs.length), ...runs.slice(0, round % runs.length)]
      for (const [kind, workload] of order) {
        const figure = await load(server, plan.seconds, plan.connections, kind, workload)
        rounds[`${kind}-${workload}`].push(figure)
        plan.log(
          `  sessions round ${round + 1}/${plan.rounds} ${`${kind} ${workload}`.padEnd(13)} ${figure.rps.toFixed(0)} req/s`,
        )
      }
    }
  } finally {
    await server.stop()
  }
  const ratio = (a, b) => median(rounds[a].map((f, i) => f.rps / rounds[b][i].rps))
  // The same from server CPU per request (b's / a's: work per request, inverted), which moves far
  // less than req/s when other work takes the cores.
  const cpuRatio = (a, b) =>
    rounds[a][0]?.cpuUsPerRequest === undefined
      ? undefined
      : median(rounds[a].map((f, i) => rounds[b][i].cpuUsPerRequest / f.cpuUsPerRequest))
  const pairs = {
    hundredOverOne: ['hundred-list', 'one-list'],
    oneOverDefault: ['one-list', 'default-list'],
    baggageOverOne: ['baggage-list', 'one-list'],
    boundOverOne: ['bound-list', 'one-list'],
    hundredOverOneMixed: ['hundred-mixed', 'one-mixed'],
  }
  return {
    sessions: SESSIONS,
    ...summarizeRounds(rounds, ['cpuUsPerRequest']),
    ratios: Object.fromEntries(Object.entries(pairs).map(([name, [a, b]]) => [name, ratio(a, b)])),
    cpuRatios: Object.fromEntries(Object.entries(pairs).map(([name, [a, b]]) => [name, cpuRatio(a, b)])),
  }
}

/**
 * With `--pets 100000`: `samples` times, in turn (the order rotating), a fork of a session that
 * created 10 pets (`PUT /__sandbox/sessions/fork-<i>` `{ "from": "source" }`), the
 * first listing in a session never used before, and a listing in the session `source`; each timed
 * from the client, one request at a time. Percentiles in ms.
 *
 * @param {{ samples: number, keysFile: string, log: (line: string) => void }} plan
 */
export async function measureSessionStart(plan) {
  const server = await startSandbox(plan.keysFile, [
    '--pets',
    '100000',
    '--admin-token',
    ADMIN_TOKEN,
    '--max-sessions',
    String(2 * plan.samples + 10),
  ])
  /** @param {string} path @param {{ session?: string, method?: string, body?: unknown, admin?: boolean }} [options] */
  const call = async (path, { session, method = 'GET', body, admin = false } = {}) => {
    const began = performance.now()
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: {
        authorization: admin ? `Bearer ${ADMIN_TOKEN}` : AUTHORIZATION,
        ...(session === undefined ? {} : { 'x-sandbox-session': session }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    await response.arrayBuffer()
    const ms = performance.now() - began
    if (!response.ok) throw new Error(`${method} ${path} in ${session ?? 'default'}: ${response.status}`)
    return ms
  }
  const times = { fork: [], firstUse: [], warm: [] }
  try {
    for (let i = 0; i < 10; i++)
      await call('/v1/pets', {
        session: 'source',
        method: 'POST',
        body: { name: `Source ${i}`, categoryId: 1, status: 'available' },
      })
    // Warm-up of each kind, not counted.
    for (let i = 0; i < 20; i++) {
      await call(`/__sandbox/sessions/warm-fork-${i}`, { method: 'PUT', body: { from: 'source' }, admin: true })
      await call(LIST, { session: `warm-first-${i}` })
      await call(LIST, { session: 'source' })
    }
    const steps = {
      fork: (i) => call(`/__sandbox/sessions/fork-${i}`, { method: 'PUT', body: { from: 'source' }, admin: true }),
      firstUse: (i) => call(LIST, { session: `first-${i}` }),
      warm: () => call(LIST, { session: 'source' }),
    }
    const names = Object.keys(steps)
    for (let i = 0; i < plan.samples; i++) {
      for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)])
        times[name].push(await steps[name](i))
    }
  } finally {
    await server.stop()
  }
  const summary = (values) => ({
    p50Ms: percentile(values, 50),
    p95Ms: percentile(values, 95),
    p99Ms: percentile(values, 99),
  })
  plan.log(
    `  session start: fork p95 ${percentile(times.fork, 95).toFixed(2)} ms, first use p95 ${percentile(times.firstUse, 95).toFixed(2)} ms`,
  )
  return {
    pets: 100000,
    samples: plan.samples,
    fork: summary(times.fork),
    firstUse: summary(times.firstUse),
    warm: summary(times.warm),
  }
}
