// `npm run bench [-- --quick] [--only=<sections>] [--rounds=<n>]`: every figure of BENCHMARKS.md in one run. A benchmark, never a test.
//
// Each server runs in a child process of its own, so autocannon (here) and the server do not share
// an event loop. Rounds are interleaved (sandbox, prism, json-server, floor, raw, sandbox, ...) and every figure
// is the median of its rounds, so noise from other work on the machine hits all servers alike and
// the ratios stay meaningful even when the absolute numbers wander.
import autocannon from 'autocannon'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import {
  AUTHORIZATION,
  CONTRACT,
  JSON_SERVER_BIN,
  PRISM_BIN,
  WIREMOCK_JAR,
  ROOT,
  SANDBOX_BIN,
  answers200,
  cpuMs,
  freePort,
  median,
  residentBytes,
  runScript,
  spawnServer,
  summarizeRounds,
  writeKeysFile,
} from './support.mjs'
import { measureColdStart } from './cold-start-library.mjs'
import { writeJsonServerDb, writeWireMockRoot } from './constant-body.mjs'
import { measureRedisThroughput } from './redis-throughput.mjs'
import { measureSessionStart, measureSessionThroughput } from './sessions.mjs'

const quick = process.argv.includes('--quick')
// Seconds are whole: autocannon ends a run on its one-second tick, so 1.5 s runs for 2 s.
const plan = quick
  ? {
      rounds: 2,
      seconds: 1,
      warmupSeconds: 1,
      startups: 2,
      inProcessRounds: 3,
      inProcessMs: 600,
      retentionRounds: 1,
      retentionRequests: 1000,
      scaleSamples: 300,
      memoryRounds: 1,
      sessionSamples: 50,
    }
  : {
      rounds: 5,
      seconds: 5,
      warmupSeconds: 2,
      startups: 5,
      inProcessRounds: 7,
      inProcessMs: 2000,
      retentionRounds: 3,
      retentionRequests: 5000,
      scaleSamples: 2000,
      memoryRounds: 5,
      sessionSamples: 200,
    }
// `--rounds=<n>`: more interleaved rounds of every load than the plan's, for a ratio the machine's noise hides.
const rounds = process.argv.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length)
if (rounds !== undefined) plan.rounds = Number(rounds)
const CONNECTIONS = 50
const keysFile = writeKeysFile()
const jsonServerDb = writeJsonServerDb()
// WireMock runs on Debian's Java; without one the run leaves it out, saying so.
const hasJava = spawnSync('java', ['-version']).status === 0
const log = (line) => process.stderr.write(`${line}\n`)

// --- 1. HTTP throughput ---------------------------------------------------------------------------

const SERVERS = {
  sandbox: {
    args: (port) => [SANDBOX_BIN, 'start', '--port', String(port), '--log', 'off', '--keys', keysFile],
    list: '/v1/pets?limit=20',
  },
  // Prism ignores the servers' /v1 prefix and serves the document's paths at the root.
  prism: {
    args: (port) => [PRISM_BIN, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', CONTRACT],
    list: '/pets?limit=20',
  },
  // json-server serves the database's arrays at the root and pages by `_limit`; `--read-only` as nothing is written.
  jsonServer: {
    args: (port) => [
      JSON_SERVER_BIN,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--quiet',
      '--read-only',
      jsonServerDb,
    ],
    list: '/pets?_limit=20',
  },
  // WireMock 3 standalone (the npm package's jar) with one stub of the sandbox's bytes; no request journal, as none is read.
  ...(hasJava && {
    wireMock: {
      command: 'java',
      // The JVM compiles its hot paths late (BENCHMARKS.md, "How it measures").
      warmupSeconds: 30,
      args: (port) => [
        '-jar',
        WIREMOCK_JAR,
        '--bind-address',
        '127.0.0.1',
        '--port',
        String(port),
        '--root-dir',
        writeWireMockRoot(),
        '--no-request-journal',
        '--disable-banner',
      ],
      list: '/v1/pets?limit=20',
    },
  }),
  floor: { args: (port) => [join(ROOT, 'bench/servers/floor-server.mjs'), String(port)], list: '/v1/pets?limit=20' },
  claimingFloor: {
    args: (port) => [join(ROOT, 'bench/servers/claiming-floor-server.mjs'), String(port)],
    list: '/v1/pets?limit=20',
  },
  raw: { args: (port) => [join(ROOT, 'bench/servers/raw-server.mjs'), String(port)], list: '/v1/pets?limit=20' },
  rawBody: {
    args: (port) => [join(ROOT, 'bench/servers/raw-server.mjs'), String(port), '--body-only'],
    list: '/v1/pets?limit=20',
  },
}

// The peers among SERVERS, each to stay this many times behind the sandbox; `sandboxOver<Name>` their ratios.
const PEERS = [
  ['prism', 'Prism'],
  ['jsonServer', 'json-server'],
  ['wireMock', 'WireMock'],
].filter(([name]) => name in SERVERS)
if (!hasJava) log('WireMock left out: no java on PATH (Debian: apt-get install default-jre-headless)')
const PEER_FACTOR = 2.5
const overPeer = (name) => `sandboxOver${name[0].toUpperCase()}${name.slice(1)}`

async function start(name, extraArgs = []) {
  const port = await freePort()
  const server = SERVERS[name]
  const origin = `http://127.0.0.1:${port}`
  const running = await spawnServer([...server.args(port), ...extraArgs], {
    ready: answers200(`${origin}${server.list}`),
    ...(server.command === undefined ? {} : { command: server.command }),
  })
  return { ...running, origin, list: server.list }
}

/**
 * One autocannon run; throws when anything but 2xx came back, so a figure never hides errors.
 * Also reads the server's CPU time per request (clock ticks of 10 ms, so a 5 s run resolves it to
 * a few per cent): unlike req/s it hardly moves when other work takes the machine's cores.
 */
async function load(origin, seconds, requests, pid) {
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: AUTHORIZATION },
    requests,
  })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${origin}: ${bad} of ${result.requests.total} requests were not answered 2xx`)
  const cpuAfter = cpuMs(pid)
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : ((cpuAfter - cpuBefore) * 1000) / result.requests.total
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerRequest,
    // How many of the machine's cores the server kept busy: more than one for a server of many threads.
    cores: cpuUsPerRequest === undefined ? undefined : (cpuAfter - cpuBefore) / 1000 / result.duration,
  }
}

// list 70 %, create 15 %, get 15 %: one request description whose setupRequest draws the operation.
function mixedRequests() {
  let created = 0
  return [
    {
      setupRequest(request) {
        const draw = Math.random()
        if (draw < 0.7) return { ...request, method: 'GET', path: '/v1/pets?limit=20' }
        if (draw < 0.85) {
          created++
          return {
            ...request,
            method: 'POST',
            path: '/v1/pets',
            headers: { ...request.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Bench ${created}`, categoryId: 1 + (created % 5), status: 'available' }),
          }
        }
        return { ...request, method: 'GET', path: `/v1/pets/${1 + Math.floor(Math.random() * 50)}` }
      },
    },
  ]
}

async function httpThroughput() {
  const names = Object.keys(SERVERS)
  const running = {}
  for (const name of names) running[name] = await start(name)
  const rounds = Object.fromEntries([...names, 'mixed'].map((name) => [name, []]))
  try {
    for (const name of names) {
      // A quick run keeps to its minute and warms every server alike.
      const seconds = quick ? plan.warmupSeconds : Math.max(plan.warmupSeconds, SERVERS[name].warmupSeconds ?? 0)
      await load(running[name].origin, seconds, [{ path: running[name].list }], running[name].child.pid)
    }
    for (let round = 0; round < plan.rounds; round++) {
      // Rotate the order too, so no server always runs right after the same neighbour.
      const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
      for (const name of order) {
        const figure = await load(
          running[name].origin,
          plan.seconds,
          [{ path: running[name].list }],
          running[name].child.pid,
        )
        rounds[name].push(figure)
        log(`  http round ${round + 1}/${plan.rounds} ${name.padEnd(13)} ${figure.rps.toFixed(0)} req/s`)
      }
      const mixed = await load(running.sandbox.origin, plan.seconds, mixedRequests(), running.sandbox.child.pid)
      rounds.mixed.push(mixed)
      log(`  http round ${round + 1}/${plan.rounds} mixed         ${mixed.rps.toFixed(0)} req/s`)
    }
  } finally {
    for (const name of names) await running[name].stop()
  }
  const summary = summarizeRounds(rounds, ['cpuUsPerRequest', 'cores'])
  // Ratios per round (servers of one round ran back to back), then their median.
  const ratio = (a, b) => median(rounds[a].map((f, i) => f.rps / rounds[b][i].rps))
  // The same ratios from server CPU per request (b's CPU / a's CPU: work per request, inverted).
  const cpuRatio = (a, b) =>
    rounds[a][0]?.cpuUsPerRequest === undefined
      ? undefined
      : median(rounds[a].map((f, i) => rounds[b][i].cpuUsPerRequest / f.cpuUsPerRequest))
  return {
    ...summary,
    ratios: {
      ...Object.fromEntries(PEERS.map(([name]) => [overPeer(name), ratio('sandbox', name)])),
      sandboxOverFloor: ratio('sandbox', 'floor'),
      sandboxOverClaimingFloor: ratio('sandbox', 'claimingFloor'),
      sandboxOverRaw: ratio('sandbox', 'raw'),
      sandboxOverRawBody: ratio('sandbox', 'rawBody'),
      floorOverRaw: ratio('floor', 'raw'),
      claimingFloorOverRaw: ratio('claimingFloor', 'raw'),
    },
    cpuRatios: {
      ...Object.fromEntries(PEERS.map(([name]) => [overPeer(name), cpuRatio('sandbox', name)])),
      sandboxOverFloor: cpuRatio('sandbox', 'floor'),
      sandboxOverClaimingFloor: cpuRatio('sandbox', 'claimingFloor'),
      sandboxOverRaw: cpuRatio('sandbox', 'raw'),
      sandboxOverRawBody: cpuRatio('sandbox', 'rawBody'),
      claimingFloorOverRaw: cpuRatio('claimingFloor', 'raw'),
    },
  }
}

// --- 2. Start-up --------------------------------------------------------------------------------

async function startUp() {
  const runs = { sandbox50: [], sandbox100000: [], prism: [] }
  const rss100000 = []
  for (let i = 0; i < plan.startups; i++) {
    for (const [name, server, args] of /** @type {Array<[string, string, string[]]>} */ ([
      ['sandbox50', 'sandbox', []],
      ['sandbox100000', 'sandbox', ['--pets', '100000']],
      ['prism', 'prism', []],
    ])) {
      const running = await start(server, args)
      runs[name].push(running.startupMs)
      if (name === 'sandbox100000') {
        // Read once the server is up and idle, a second after its first answer.
        await new Promise((resolve) => setTimeout(resolve, 1000))
        rss100000.push(await residentBytes(running.child.pid))
      }
      await running.stop()
      log(`  start-up ${i + 1}/${plan.startups} ${name.padEnd(14)} ${running.startupMs.toFixed(0)} ms`)
    }
  }
  const ms = Object.fromEntries(
    Object.entries(runs).map(([name, values]) => [name, { medianMs: median(values), runsMs: values.map(Math.round) }]),
  )
  return {
    ...ms,
    sandbox50OverPrism: median(runs.sandbox50.map((v, i) => v / runs.prism[i])),
    cliRssAt100000Bytes: median(rss100000),
  }
}

// --- 3, 4. In-process, scale and memory (fresh processes of their own) -------------------------------

const inProcess = () => runScript('in-process.mjs', [String(plan.inProcessRounds), String(plan.inProcessMs)])
// What an in-process request leaves behind after a full GC, the sandbox beside a bare msw handler
// (no Content-Length, as one is usually written), fresh processes alternating.
const inProcessRetention = async () => {
  const runs = { sandbox: [], bare: [] }
  for (let round = 0; round < plan.retentionRounds; round++) {
    for (const handlers of ['sandbox', 'bare']) {
      runs[handlers].push(
        await runScript('in-process-retention.mjs', [handlers, String(plan.retentionRequests)], ['--expose-gc']),
      )
    }
  }
  const summary = (kind) => ({
    heapBytesPerRequest: median(runs[kind].map((run) => run.heapBytesPerRequest)),
    tcpHandlesPerRequest: median(runs[kind].map((run) => run.tcpHandlesPerRequest)),
  })
  return {
    requests: plan.retentionRequests,
    rounds: plan.retentionRounds,
    sandbox: summary('sandbox'),
    bare: summary('bare'),
  }
}
const scale = () => runScript('scale.mjs', [String(plan.scaleSamples)])
// The library cannot choose V8's flags for its host; what a host can do about the young
// generation is measured beside the default.
// Interleaved rounds of fresh processes: 100000 pets, no pets (the host with the library loaded
// and one request served: what the pets add is the difference), and 100000 pets under a small
// young generation. Each field is the median over the rounds of its kind.
const MEMORY_PETS = 100000
const memory = async () => {
  const runs = { full: [], empty: [], small: [] }
  for (let round = 0; round < plan.memoryRounds; round++) {
    runs.full.push(await runScript('memory.mjs', [String(MEMORY_PETS)], ['--expose-gc']))
    runs.empty.push(await runScript('memory.mjs', ['0'], ['--expose-gc']))
    runs.small.push(await runScript('memory.mjs', [String(MEMORY_PETS)], ['--expose-gc', '--max-semi-space-size=16']))
    log(
      `  memory round ${round + 1}/${plan.memoryRounds} ${(runs.full[round].rssBytes / 2 ** 20).toFixed(0)} MB RSS with ${MEMORY_PETS} pets`,
    )
  }
  const medianOf = (kind) =>
    Object.fromEntries(
      ['rssBytes', 'heapUsedBytes', 'rssAfterMemoryReducingGcBytes'].map((field) => [
        field,
        median(runs[kind].map((run) => run[field])),
      ]),
    )
  const full = medianOf('full')
  const empty = medianOf('empty')
  return {
    ...full,
    rssRunsBytes: runs.full.map((run) => run.rssBytes),
    baselineRssBytes: empty.rssBytes,
    heapBytesPerPet: (full.heapUsedBytes - empty.heapUsedBytes) / MEMORY_PETS,
    withSmallYoungGeneration: medianOf('small'),
  }
}

// What a test file pays before its first test: fresh processes importing the library
// and calling createSandbox(), beside msw's own import (bench/cold-start-library.mjs).
const coldStart = () => measureColdStart({ runs: quick ? 5 : 15 })
const redis = () =>
  measureRedisThroughput({
    rounds: plan.rounds,
    seconds: plan.seconds,
    warmupSeconds: plan.warmupSeconds,
    connections: CONNECTIONS,
    keysFile,
    log,
  })

// Sessions (bench/sessions.mjs over HTTP; bench/session-start.mjs and bench/session-memory.mjs
// in fresh processes of their own): throughput over 100 sessions beside one, the time to a fork and
// to a first use with 100000 start-up pets, and the heap sessions take.
const SESSION_MEMORY = { pets: 1000, sessions: 1000, created: 10 }
const sessions = async () => ({
  throughput: await measureSessionThroughput({
    rounds: plan.rounds,
    seconds: plan.seconds,
    warmupSeconds: plan.warmupSeconds,
    connections: CONNECTIONS,
    keysFile,
    log,
  }),
  startHttp: await measureSessionStart({ samples: plan.sessionSamples, keysFile, log }),
  startInProcess: await runScript('session-start.mjs', [String(plan.sessionSamples)]),
  memory: await runScript(
    'session-memory.mjs',
    [SESSION_MEMORY.pets, SESSION_MEMORY.sessions, SESSION_MEMORY.created].map(String),
    ['--expose-gc'],
  ),
})

// Sections run in this order.
/** @type {Array<[string, () => Promise<any>]>} */
const SECTIONS = [
  ['http', httpThroughput],
  ['startUp', startUp],
  ['inProcess', inProcess],
  ['inProcessRetention', inProcessRetention],
  ['scale', scale],
  ['memory', memory],
  ['coldStart', coldStart],
  ['redis', redis],
  ['sessions', sessions],
]

// --- report ---------------------------------------------------------------------------------------

/** @typedef {[string, (r: any) => number, (v: number) => boolean | undefined, string, (v: number, r: any) => string]} Target */
/** @type {Target[]} */
const TARGETS = [
  ...PEERS.map(
    ([name, label]) =>
      /** @type {Target} */ ([
        `sandbox / ${label}, HTTP throughput (by server CPU per request)`,
        (r) => r.http.ratios[overPeer(name)],
        (v) => v >= PEER_FACTOR,
        `at least ${PEER_FACTOR}`,
        (v, r) => `${ratioText(v)} (${r.http.cpuRatios[overPeer(name)]?.toFixed(2) ?? 'n/a'})`,
      ]),
  ),
  [
    'sandbox / bare-msw floor, HTTP throughput',
    (r) => r.http.ratios.sandboxOverFloor,
    (v) => v >= 0.8,
    'at least 0.8',
    ratioText,
  ],
  [
    "sandbox / floor under the sandbox's own handler class (ClaimingHandler), HTTP throughput",
    (r) => r.http.ratios.sandboxOverClaimingFloor,
    () => undefined,
    'reported',
    ratioText,
  ],
  [
    'sandbox / raw node:http writing the same bytes, HTTP throughput',
    (r) => r.http.ratios.sandboxOverRaw,
    (v) => v >= 0.6,
    'at least 0.6',
    ratioText,
  ],
  [
    'sandbox / raw node:http writing the same bytes, server CPU per request',
    (r) => r.http.cpuRatios.sandboxOverRaw,
    (v) => (v === undefined ? undefined : v >= 0.6),
    'at least 0.6',
    (v) => (v === undefined ? 'n/a' : ratioText(v)),
  ],
  [
    'ClaimingHandler floor / raw node:http writing the same bytes: the adapter and the tail alone, HTTP throughput',
    (r) => r.http.ratios.claimingFloorOverRaw,
    () => undefined,
    'reported',
    (v, r) =>
      `${ratioText(v)} (by server CPU per request: ${r.http.cpuRatios.claimingFloorOverRaw?.toFixed(2) ?? 'n/a'})`,
  ],
  [
    'sandbox / raw node:http writing only the body, HTTP throughput',
    (r) => r.http.ratios.sandboxOverRawBody,
    () => undefined,
    'reported',
    ratioText,
  ],
  ['start-up 50 pets / Prism start-up', (r) => r.startUp.sandbox50OverPrism, (v) => v <= 0.5, 'at most 0.5', ratioText],
  [
    'start-up, 100000 pets',
    (r) => r.startUp.sandbox100000.medianMs,
    (v) => v < 1500,
    'under 1500 ms',
    (v) => `${v.toFixed(0)} ms`,
  ],
  [
    'in-process, sandbox / bare msw, time per request',
    (r) => r.inProcess.ratio,
    (v) => v <= 1.3,
    'at most 1.3',
    ratioText,
  ],
  [
    'in-process, heap left per request after a full GC: sandbox (bare msw handler)',
    (r) => r.inProcessRetention.sandbox.heapBytesPerRequest,
    () => undefined,
    'reported',
    (v, r) => `${kb(v)} (${kb(r.inProcessRetention.bare.heapBytesPerRequest)})`,
  ],
  ['list p50 at 100000 / at 1000 pets', (r) => r.scale.listP50Ratio, (v) => v <= 3, 'at most 3', ratioText],
  [
    'resident memory with 100000 pets (CLI, idle after start-up)',
    (r) => r.startUp.cliRssAt100000Bytes,
    (v) => v < 200 * 2 ** 20,
    'under 200 MB',
    mb,
  ],
  [
    'resident memory with 100000 pets (library, right after seeding)',
    (r) => r.memory.rssBytes,
    (v) => v < 200 * 2 ** 20,
    'under 200 MB',
    mb,
  ],
  [
    'resident memory with 100000 pets (library, after a memory-reducing GC)',
    (r) => r.memory.rssAfterMemoryReducingGcBytes,
    (v) => v < 200 * 2 ** 20,
    'under 200 MB',
    mb,
  ],
  [
    'one process on Redis / one in memory, HTTP throughput',
    (r) => r.redis.ratios?.redisOverMemory ?? Number.NaN,
    (v) => (Number.isNaN(v) ? undefined : v >= 0.5),
    'at least 0.5',
    (v, r) => (Number.isNaN(v) ? r.redis.skipped : ratioText(v)),
  ],
  [
    'cold cost of a test file: import + createSandbox() + ready()',
    (r) => r.coldStart.library.ready,
    (v) => v <= 250,
    'at most 250 ms',
    (v) => `${v.toFixed(0)} ms`,
  ],
  [
    'first refusal (400) of a fresh process, beyond a warm one',
    (r) => r.coldStart.library.firstRefusal - r.coldStart.library.warmRefusal,
    (v) => v <= 50,
    'at most 50 ms',
    (v, r) =>
      `${v.toFixed(1)} ms (${r.coldStart.library.firstRefusal.toFixed(1)} vs ${r.coldStart.library.warmRefusal.toFixed(2)} ms)`,
  ],
  [
    'sessions: one session named by baggage / by X-Sandbox-Session, HTTP throughput',
    (r) => r.sessions.throughput.ratios.baggageOverOne,
    (v) => v >= 0.98,
    'at least 0.98',
    (v, r) =>
      `${ratioText(v)} (by server CPU per request: ${r.sessions.throughput.cpuRatios.baggageOverOne?.toFixed(2) ?? 'n/a'})`,
  ],
  [
    'sessions: one session named by a key bound to it / by X-Sandbox-Session, HTTP throughput',
    (r) => r.sessions.throughput.ratios.boundOverOne,
    (v) => v >= 0.98,
    'at least 0.98',
    (v, r) =>
      `${ratioText(v)} (by server CPU per request: ${r.sessions.throughput.cpuRatios.boundOverOne?.toFixed(2) ?? 'n/a'})`,
  ],
  [
    'sessions: 100 sessions round-robin / one session, HTTP throughput',
    (r) => r.sessions.throughput.ratios.hundredOverOne,
    (v) => v >= 0.95,
    'at least 0.95',
    (v, r) =>
      `${ratioText(v)} (by server CPU per request: ${r.sessions.throughput.cpuRatios.hundredOverOne?.toFixed(2) ?? 'n/a'})`,
  ],
  [
    'sessions: a fork (`PUT /__sandbox/sessions/{name}` `{ from }`), 100000 start-up pets, p95 over HTTP (a listing beside it)',
    (r) => r.sessions.startHttp.fork.p95Ms,
    (v) => v < 5,
    'under 5 ms',
    (v, r) => `${ms(v)} (${ms(r.sessions.startHttp.warm.p95Ms)})`,
  ],
  [
    'sessions: the first request of a new session, 100000 start-up pets, p95 over HTTP (a listing beside it)',
    (r) => r.sessions.startHttp.firstUse.p95Ms,
    (v) => v < 5,
    'under 5 ms',
    (v, r) => `${ms(v)} (${ms(r.sessions.startHttp.warm.p95Ms)})`,
  ],
  [
    'sessions: a fork, 100000 start-up pets, p95 in-process (its CPU time)',
    (r) => r.sessions.startInProcess.fork.p95Ms,
    (v) => v < 5,
    'under 5 ms',
    (v, r) => `${ms(v)} (${ms(r.sessions.startInProcess.fork.cpuP95Ms)})`,
  ],
  [
    'sessions: the first request of a new session, 100000 start-up pets, p95 in-process (its CPU time; a listing beside it)',
    (r) => r.sessions.startInProcess.firstUse.p95Ms,
    (v) => v < 5,
    'under 5 ms',
    (v, r) =>
      `${ms(v)} (${ms(r.sessions.startInProcess.firstUse.cpuP95Ms)}; ${ms(r.sessions.startInProcess.warm.p95Ms)})`,
  ],
  [
    'sessions: heap per session that only read (a listing and a pet)',
    (r) => r.sessions.memory.heapBytesPerReadOnlySession,
    (v) => v < 20 * 1024,
    'under 20 KB',
    kb,
  ],
  [
    'sessions: heap of 1000 sessions with 10 created pets each, over one session',
    (r) => r.sessions.memory.heapBytesOverOneSessionWithCreatedPets,
    (v) => v < 50 * 2 ** 20,
    'under 50 MB',
    (v) => `${(v / 2 ** 20).toFixed(1)} MB`,
  ],
]

function ms(v) {
  return `${v.toFixed(2)} ms`
}
function ratioText(v) {
  return v.toFixed(2)
}
function kb(bytes) {
  return Math.abs(bytes) < 1024 ? `${bytes.toFixed(0)} B` : `${(bytes / 1024).toFixed(1)} KB`
}
function mb(bytes) {
  return `${(bytes / 2 ** 20).toFixed(0)} MB`
}

function table(r) {
  const lines = []
  lines.push('| figure | measured | target | met |', '|---|---|---|---|')
  for (const [name, get, check, target, format] of TARGETS) {
    const value = get(r)
    const met = check(value)
    lines.push(`| ${name} | ${format(value, r)} | ${target} | ${met === undefined ? '—' : met ? 'yes' : '**no**'} |`)
  }
  lines.push(
    '',
    `HTTP, \`GET /v1/pets?limit=20\`, ${CONNECTIONS} connections, median of ${plan.rounds} interleaved rounds of ${plan.seconds} s:`,
    '',
  )
  lines.push(
    '| server | req/s | p50 ms | p99 ms | server CPU µs / request | cores busy | rounds (req/s) |',
    '|---|---|---|---|---|---|---|',
  )
  const labels = {
    sandbox: 'sandbox (CLI, full pipeline)',
    prism: 'Prism mock 5.15 (`GET /pets`)',
    jsonServer: 'json-server 0.17 (`GET /pets?_limit=20`)',
    wireMock: 'WireMock 3.13 (one stub, the same bytes)',
    floor: 'floor: adapter + one constant msw `http.get` handler',
    claimingFloor: 'floor: adapter + one constant `ClaimingHandler`',
    raw: 'raw node:http, same bytes',
    rawBody: 'raw node:http, same body, no other header',
    mixed: 'sandbox, mixed 70/15/15',
  }
  for (const name of [...Object.keys(SERVERS), 'mixed']) {
    const s = r.http[name]
    lines.push(
      `| ${labels[name]} | ${s.rps.toFixed(0)} | ${s.p50Ms} | ${s.p99Ms} | ${s.cpuUsPerRequest === undefined ? 'n/a' : s.cpuUsPerRequest.toFixed(0)} | ${s.cores === undefined ? 'n/a' : s.cores.toFixed(2)} | ${s.rounds.join(', ')} |`,
    )
  }
  const c = r.http.cpuRatios
  if (c.sandboxOverPrism !== undefined) {
    lines.push(
      '',
      `The same ratios from server CPU time per request (per round, then the median): ${PEERS.map(([name, label]) => `sandbox / ${label} ${c[overPeer(name)].toFixed(2)}`).join(', ')}, sandbox / floor ${c.sandboxOverFloor.toFixed(2)}, sandbox / ClaimingHandler floor ${c.sandboxOverClaimingFloor.toFixed(2)}, sandbox / raw ${c.sandboxOverRaw.toFixed(2)} (${c.sandboxOverRawBody.toFixed(2)} against the raw server writing only the body).`,
    )
  }
  lines.push('', `Start-up, spawn to first 200, median of ${plan.startups}:`, '')
  lines.push('| server | median ms | runs ms |', '|---|---|---|')
  for (const [name, label] of [
    ['sandbox50', 'sandbox, 50 pets'],
    ['sandbox100000', 'sandbox, 100000 pets'],
    ['prism', 'Prism mock'],
  ]) {
    lines.push(`| ${label} | ${r.startUp[name].medianMs.toFixed(0)} | ${r.startUp[name].runsMs.join(', ')} |`)
  }
  lines.push(
    '',
    `In-process (\`setupServer\` + \`fetch\`, one request at a time), median of ${r.inProcess.rounds} interleaved rounds:`,
    '',
  )
  lines.push('| handlers | req/s | µs per request |', '|---|---|---|')
  lines.push(`| sandbox | ${r.inProcess.sandbox.rps.toFixed(0)} | ${r.inProcess.sandbox.usPerRequest.toFixed(0)} |`)
  lines.push(
    `| bare msw handler, constant body | ${r.inProcess.bare.rps.toFixed(0)} | ${r.inProcess.bare.usPerRequest.toFixed(0)} |`,
  )
  const kept = r.inProcessRetention
  lines.push(
    '',
    `What an in-process request leaves behind, after ${kept.requests} requests and a full GC (fresh processes, median of ${kept.rounds}): the sandbox ${kb(kept.sandbox.heapBytesPerRequest)} of heap and ${kept.sandbox.tcpHandlesPerRequest} open TCP handles per request; a bare msw handler whose response has no Content-Length ${kb(kept.bare.heapBytesPerRequest)} and ${kept.bare.tcpHandlesPerRequest} (msw 3 never closes the socket of a connection it ended; see docs/upstream-reports.md).`,
  )
  lines.push('', `Scale, in-process, ${r.scale.samples} requests of each kind per size:`, '')
  lines.push('| stored pets | list sold, limit 100: p50 / p99 ms | create: p50 / p99 ms |', '|---|---|---|')
  for (const size of r.scale.sizes) {
    const s = r.scale.bySize[size]
    lines.push(
      `| ${size} | ${s.list.p50Ms.toFixed(3)} / ${s.list.p99Ms.toFixed(3)} | ${s.create.p50Ms.toFixed(3)} / ${s.create.p99Ms.toFixed(3)} |`,
    )
  }
  const m = r.memory
  lines.push(
    '',
    `Memory with 100000 pets: the CLI process 1 s after its first 200, ${mb(r.startUp.cliRssAt100000Bytes)} RSS (median of ${plan.startups}). The library, in fresh processes (\`createSandbox\`, seeded, one request, full GC; median of ${m.rssRunsBytes.length}, runs ${m.rssRunsBytes.map(mb).join(', ')}): ${mb(m.rssBytes)} RSS and ${mb(m.heapUsedBytes)} heap used; the same with no pets, ${mb(m.baselineRssBytes)} RSS, so the pets take ${m.heapBytesPerPet.toFixed(0)} bytes of heap each. ${mb(m.rssAfterMemoryReducingGcBytes)} RSS once a memory-reducing GC has given back the young generation that seeding grew; ${mb(m.withSmallYoungGeneration.rssBytes)} RSS under \`node --max-semi-space-size=16\`.`,
  )
  const cold = r.coldStart
  lines.push(
    '',
    `Cold cost of a test file, median of ${cold.runs} fresh processes each (\`npm run bench:cold\` for this part alone):`,
    '',
  )
  lines.push('| step | median ms | / msw import |', '|---|---|---|')
  const coldRow = (label, value) =>
    lines.push(`| ${label} | ${value.toFixed(0)} | ${(value / cold.msw.import).toFixed(1)} |`)
  coldRow("`import 'msw'` + `msw/node`", cold.msw.import)
  coldRow("`import 'petstore-sandbox'`", cold.library.import)
  coldRow('... + `createSandbox()` + `ready()`', cold.library.ready)
  coldRow('... + the first response (`GET /v1/pets?limit=1`)', cold.library.firstResponse)
  lines.push(
    '',
    `First refusal: the first \`GET /v1/pets?limit=0\` of a fresh process is answered 400 in ${cold.library.firstRefusal.toFixed(1)} ms, a warm one in ${cold.library.warmRefusal.toFixed(2)} ms (medians of ${cold.runs} processes).`,
  )
  if (r.redis.skipped === undefined) {
    lines.push(
      '',
      `Shared state on Redis (\`--redis\`, a local redis-server 7), \`GET ${'/v1/pets?limit=20'}\`, ${CONNECTIONS} connections, median of ${plan.rounds} interleaved rounds:`,
      '',
    )
    lines.push(
      '| setup | req/s | p50 ms | p99 ms | Redis commands / request | rounds (req/s) |',
      '|---|---|---|---|---|---|',
    )
    for (const [name, label] of [
      ['memory', 'one process, in memory'],
      ['redis', 'one process on Redis'],
      ['workers', 'two workers on Redis (`--workers 2`)'],
    ]) {
      const s = r.redis[name]
      lines.push(
        `| ${label} | ${s.rps.toFixed(0)} | ${s.p50Ms} | ${s.p99Ms} | ${s.redisCommandsPerRequest.toFixed(2)} | ${s.rounds.join(', ')} |`,
      )
    }
  }
  const t = r.sessions.throughput
  lines.push(
    '',
    `Sessions, one CLI process, \`GET /v1/pets?limit=20\` (and the mixed 70/15/15), ${CONNECTIONS} connections, median of ${plan.rounds} interleaved rounds:`,
    '',
  )
  lines.push(
    '| requests name | req/s | p50 ms | p99 ms | server CPU µs / request | rounds (req/s) |',
    '|---|---|---|---|---|---|',
  )
  for (const [name, label] of [
    ['default-list', 'no session (the default)'],
    ['one-list', 'one session'],
    ['baggage-list', 'one session, named by baggage'],
    ['bound-list', 'one session, named by a bound key'],
    ['hundred-list', `${t.sessions} sessions, round-robin`],
    ['one-mixed', 'one session, mixed'],
    ['hundred-mixed', `${t.sessions} sessions, mixed`],
  ]) {
    const s = t[name]
    lines.push(
      `| ${label} | ${s.rps.toFixed(0)} | ${s.p50Ms} | ${s.p99Ms} | ${s.cpuUsPerRequest === undefined ? 'n/a' : s.cpuUsPerRequest.toFixed(0)} | ${s.rounds.join(', ')} |`,
    )
  }
  lines.push(
    '',
    `${t.sessions} sessions / one: ${t.ratios.hundredOverOne.toFixed(2)} listing, ${t.ratios.hundredOverOneMixed.toFixed(2)} mixed; one session / the default: ${t.ratios.oneOverDefault.toFixed(2)} (medians of the per-round ratios of req/s). By server CPU per request: ${[t.cpuRatios.hundredOverOne, t.cpuRatios.hundredOverOneMixed, t.cpuRatios.oneOverDefault].map((v) => v?.toFixed(2) ?? 'n/a').join(', ')}.`,
  )
  const started = r.sessions
  lines.push(
    '',
    `Making a session with 100000 start-up pets, ${started.startHttp.samples} of each in turn, one at a time (a fork of a session that created 10 pets; the first listing in a session never used; a listing in a session already there):`,
    '',
  )
  lines.push(
    '| step | over HTTP: p50 / p95 / p99 ms | in-process: p50 / p95 / p99 ms | in-process CPU: p50 / p95 ms |',
    '|---|---|---|---|',
  )
  const pcts = (s) => `${s.p50Ms.toFixed(2)} / ${s.p95Ms.toFixed(2)} / ${s.p99Ms.toFixed(2)}`
  for (const [name, label] of [
    ['fork', 'fork'],
    ['firstUse', 'first request of a new session'],
    ['warm', 'a listing in a session already there'],
  ]) {
    const inProcess = started.startInProcess[name]
    lines.push(
      `| ${label} | ${pcts(started.startHttp[name])} | ${pcts(inProcess)} | ${inProcess.cpuP50Ms.toFixed(2)} / ${inProcess.cpuP95Ms.toFixed(2)} |`,
    )
  }
  const sm = started.memory
  lines.push(
    '',
    `Heap, in-process (\`--expose-gc\`, ${sm.pets} start-up pets, after full GCs): ${kb(sm.heapBytesPerReadOnlySession)} per session that listed and got a pet (${sm.sessions} sessions); ${(sm.heapBytesOverOneSessionWithCreatedPets / 2 ** 20).toFixed(1)} MB for ${sm.sessions} sessions that each also created ${sm.createdPerSession} pets, over one session that did the same.`,
  )
  return lines.join('\n')
}

// `--only http,startUp` runs some sections, for development; it prints their raw results only.
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const results = { date: new Date().toISOString(), quick, plan, machine: machine() }
for (const [name, run] of SECTIONS) {
  if (only !== undefined && !only.includes(name)) continue
  log(`${name}...`)
  const began = performance.now()
  results[name] = await run()
  // Per section, so a --quick run that creeps towards its minute shows where.
  log(`  ${name}: ${((performance.now() - began) / 1000).toFixed(1)} s`)
}
if (only !== undefined) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
  process.exit(0)
}
const markdown = table(results)
process.stdout.write(`${markdown}\n`)
// A quick run writes beside the full run's results, so it never replaces the figures BENCHMARKS.md quotes.
const resultsFile = quick ? 'bench/results-quick.json' : 'bench/results.json'
writeFileSync(join(ROOT, resultsFile), `${JSON.stringify(results, null, 2)}\n`)
log(`wrote ${resultsFile}`)
if (!quick) updateBenchmarksMd(markdown)

function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  }
}

/** Replaces the generated part of BENCHMARKS.md, between its two markers, with this run's tables. */
function updateBenchmarksMd(markdown) {
  const file = join(ROOT, 'BENCHMARKS.md')
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return
  }
  const begin = '<!-- bench:results:begin -->'
  const end = '<!-- bench:results:end -->'
  const from = text.indexOf(begin)
  const to = text.indexOf(end)
  if (from === -1 || to === -1) return
  const m = results.machine
  const header = `Run of ${results.date.slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores (shared), ${(m.memoryBytes / 2 ** 30).toFixed(0)} GB, Node ${m.node}, ${m.platform}.`
  writeFileSync(file, `${text.slice(0, from + begin.length)}\n${header}\n\n${markdown}\n${text.slice(to)}`)
  log('updated BENCHMARKS.md')
}
