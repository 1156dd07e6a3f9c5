// Interleaved A/B of builds of the sandbox, for a change that must pay for itself (BENCHMARKS.md,
// "A/B of each trick"). Each argument after the options is `name=<root>`, a directory holding a
// built copy of the package (`bin/`, `dist/`, `fixtures/`, `package.json` and `node_modules`);
// the first is the reference the others' ratios are taken against. Every round measures each
// build in turn, the order rotating from round to round, so the machine's load hits every side
// alike; figures are medians of the rounds, ratios the medians of the per-round ratios.
//
//   node bench/ab.mjs --figure=http [--rounds=5] [--seconds=5] [--redis | --redis=<name>,<name>] [--rate=<req/s>] a=/path/a b=/path/b
//
// Figures:
// - http: GET /v1/pets?limit=20 through the CLI, autocannon, 50 connections: req/s and server
//   CPU µs per request, autocannon's latencies beside (`--redis`: every build on its own prefix of one local redis-server;
//   `--redis=<names>`: only the builds named, so a build can be measured in memory and on Redis
//   in the same rounds, each given twice under two names;
//   `--rate`: that many requests a second in all, rather than as many as the server answers);
// - proxy-http: the same through `petstore-sandbox proxy` of each build, in front of one upstream
//   for all (bench/servers/upstream-server.mjs: the same bytes, every promise kept);
// - startup: spawn of `start` (50 pets) to its first 200, in ms;
// - cold: a fresh process importing the build's library by its name, to `createSandbox()` and `ready()`, in ms
//   (the probe of bench/cold-start-library.mjs);
// - cli-memory: RSS of `start --pets 100000` one second after its first 200;
// - library-memory: RSS of a process that creates a sandbox with 100000 pets, right after
//   seeding and one request (bench/memory.mjs of the build itself).
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import {
  AUTHORIZATION,
  answers200,
  cpuMs,
  freePort,
  median,
  residentBytes,
  ROOT,
  spawnServer,
  startRedis,
  writeKeysFile,
} from './support.mjs'
import { probe } from './cold-start-library.mjs'

const LIST = '/v1/pets?limit=20'
const option = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const figure = option('figure', 'http')
const rounds = Number(option('rounds', '5'))
const seconds = Number(option('seconds', '5'))
// `--redis` puts every build on Redis, `--redis=a,b` the builds named a and b.
const redisBuilds = process.argv.includes('--redis') ? undefined : option('redis', '').split(',').filter(Boolean)
const useRedis = redisBuilds === undefined || redisBuilds.length > 0
const onRedis = (build) => useRedis && (redisBuilds === undefined || redisBuilds.includes(build.name))
// A fixed request rate instead of saturation: then the CPU time per request is the figure.
const rate = option('rate', undefined)
const builds = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map((arg) => {
    const [name, root] = arg.split('=')
    return { name, root }
  })
if (builds.length < 2) throw new Error('give at least two builds as name=<root>')

const keysFile = writeKeysFile()
const log = (line) => process.stderr.write(`${line}\n`)
const load1 = () => loadavg()[0].toFixed(1)

async function startCli(build, args = [], command = 'start') {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const cli = join(build.root, 'bin/petstore-sandbox.js')
  const running = await spawnServer(
    [cli, command, '--port', String(port), '--log', 'off', '--keys', keysFile, ...args],
    {
      ready: answers200(`${origin}${LIST}`),
    },
  )
  return { ...running, origin }
}

/** The one upstream every build's proxy forwards to, from this checkout. */
async function startUpstream() {
  const port = await freePort()
  const running = await spawnServer([join(ROOT, 'bench/servers/upstream-server.mjs'), String(port)], {
    ready: answers200(`http://127.0.0.1:${port}${LIST}`),
  })
  return { ...running, url: `http://127.0.0.1:${port}/v1` }
}

async function loadOnce(origin, pid, duration) {
  const before = cpuMs(pid)
  const result = await autocannon({
    url: `${origin}${LIST}`,
    connections: 50,
    duration,
    headers: { authorization: AUTHORIZATION },
    ...(rate === undefined ? {} : { overallRate: Number(rate) }),
  })
  const bad = result.non2xx + result.errors + result.timeouts
  if (bad > 0) throw new Error(`${origin}: ${bad} of ${result.requests.total} requests were not answered 2xx`)
  const cpu = cpuMs(pid) - before
  return {
    value: result.requests.total / result.duration,
    cpuUs: (cpu * 1000) / result.requests.total,
    latency: { p50: result.latency.p50, mean: result.latency.mean, p99: result.latency.p99 },
  }
}

/** One measurement of `build` per round for the figures that start a process each time. */
async function measureOnce(build) {
  if (figure === 'startup') {
    const running = await startCli(build)
    // The process's own CPU time to its first 200 moves far less with the machine's load than the wall time.
    const cpu = cpuMs(running.child.pid)
    await running.stop()
    return { value: running.startupMs, cpuMs: cpu }
  }
  if (figure === 'cli-memory') {
    const running = await startCli(build, ['--pets', '100000'])
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const rss = await residentBytes(running.child.pid)
    await running.stop()
    return { value: rss / 2 ** 20 }
  }
  if (figure === 'library-memory') {
    const child = spawnSync(process.execPath, ['--expose-gc', join(build.root, 'bench/memory.mjs'), '100000'], {
      cwd: build.root,
      encoding: 'utf8',
    })
    if (child.status !== 0) throw new Error(child.stderr)
    const lines = child.stdout.trim().split('\n')
    return { value: JSON.parse(lines[lines.length - 1]).rssBytes / 2 ** 20 }
  }
  if (figure === 'cold') {
    return { value: (await probe('library', build.root)).ready }
  }
  throw new Error(`unknown figure ${figure}`)
}

const results = Object.fromEntries(builds.map((build) => [build.name, []]))
const loads = [load1()]
const served = figure === 'http' || figure === 'proxy-http'
const redis = figure === 'http' && useRedis ? await startRedis() : undefined
const upstream = figure === 'proxy-http' ? await startUpstream() : undefined
const running = {}
try {
  if (served) {
    for (const [index, build] of builds.entries()) {
      running[build.name] = upstream
        ? await startCli(build, ['--upstream', upstream.url], 'proxy')
        : await startCli(build, redis && onRedis(build) ? ['--redis', redis.url, '--redis-prefix', `ab-${index}:`] : [])
      await loadOnce(running[build.name].origin, running[build.name].child.pid, 2)
    }
  }
  for (let round = 0; round < rounds; round++) {
    const order = [...builds.slice(round % builds.length), ...builds.slice(0, round % builds.length)]
    for (const build of order) {
      const measured = served
        ? await loadOnce(running[build.name].origin, running[build.name].child.pid, seconds)
        : await measureOnce(build)
      results[build.name].push(measured)
      log(
        `round ${round + 1}/${rounds} ${build.name.padEnd(14)} ${measured.value.toFixed(1)}${measured.cpuUs ? ` (${measured.cpuUs.toFixed(1)} µs CPU/req)` : ''}${measured.cpuMs ? ` (${measured.cpuMs} ms CPU)` : ''} load ${load1()}`,
      )
    }
    loads.push(load1())
  }
} finally {
  for (const server of Object.values(running)) await server.stop()
  await upstream?.stop()
  await redis?.stop()
}

const reference = builds[0].name
const unit = {
  http: 'req/s',
  'proxy-http': 'req/s',
  startup: 'ms',
  cold: 'ms',
  'cli-memory': 'MB RSS',
  'library-memory': 'MB RSS',
}[figure]
const extra = served ? 'cpuUs' : figure === 'startup' ? 'cpuMs' : undefined
const summary = builds.map(({ name }) => ({
  name,
  median: median(results[name].map((r) => r.value)),
  ratio: median(results[name].map((r, i) => r.value / results[reference][i].value)),
  cpu: extra === undefined ? undefined : median(results[name].map((r) => r[extra])),
  cpuRatio:
    extra === undefined ? undefined : median(results[name].map((r, i) => r[extra] / results[reference][i][extra])),
  rounds: results[name].map((r) => Number(r.value.toFixed(1))),
}))
const lines = [
  `figure ${figure}${useRedis ? ` on Redis${redisBuilds === undefined ? '' : ` (${redisBuilds.join(', ')})`}` : ''}${rate === undefined ? '' : ` at ${rate} req/s`}, ${rounds} interleaved rounds${served ? ` of ${seconds} s` : ''}, load average (1 min) ${loads.join(', ')}`,
  `| build | median ${unit} | / ${reference} (median of per-round ratios) |${extra === undefined ? '' : ` ${extra === 'cpuUs' ? 'CPU µs / request' : 'CPU ms to first 200'} | CPU / ${reference} |`} rounds |`,
  `|---|---|---|${extra === undefined ? '' : '---|---|'}---|`,
  ...summary.map(
    (s) =>
      `| ${s.name} | ${s.median.toFixed(1)} | ${s.ratio.toFixed(3)} |${extra === undefined ? '' : ` ${s.cpu.toFixed(1)} | ${s.cpuRatio.toFixed(3)} |`} ${s.rounds.join(', ')} |`,
  ),
]
if (served) {
  const latency = (name, which) => median(results[name].map((r) => r.latency[which]))
  lines.push(
    `latency, autocannon's, medians of the rounds: ${builds
      .map(
        ({ name }) =>
          `${name} p50 ${latency(name, 'p50')} ms, mean ${latency(name, 'mean').toFixed(2)} ms, p99 ${latency(name, 'p99')} ms`,
      )
      .join('; ')}`,
  )
}
process.stdout.write(`${lines.join('\n')}\n`)
