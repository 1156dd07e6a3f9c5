// Shared helpers of the benchmarks: statistics, child processes, ports, the benchmark key.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inspectMemory, inspectorAddress } from '../test/support/inspect-memory.ts'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const SANDBOX_BIN = join(ROOT, 'bin/petstore-sandbox.js')
export const PRISM_BIN = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js')
export const JSON_SERVER_BIN = join(ROOT, 'node_modules/json-server/lib/cli/bin.js')
export const WIREMOCK_JAR = join(ROOT, 'node_modules/wiremock/build/wiremock-standalone-3.13.2.jar')
export const CONTRACT = join(ROOT, 'fixtures/openapi.yaml')

/** A key whose quota no benchmark reaches: every request runs the whole pipeline and is answered 200. */
export const BENCH_KEY = 'bench-enterprise-key'
/** @type {import('../dist/index.js').KeyConfig[]} */
export const BENCH_KEYS = [
  { key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000_000, perDay: 1_000_000_000_000 },
]
export const AUTHORIZATION = `Bearer ${BENCH_KEY}`

/** Writes the benchmark key to a keys file for the CLI; the file goes when this process exits. */
export function writeKeysFile() {
  const file = join(throwawayDirectory('petstore-bench-'), 'keys.json')
  writeFileSync(file, JSON.stringify({ keys: BENCH_KEYS }))
  return file
}

/** Makes a directory that goes when this process exits. */
export function throwawayDirectory(prefix) {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }))
  return directory
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The nearest-rank percentile `p` (0..100) of `values`. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/** A port that was free a moment ago (the servers are spawned with it so start-up can be polled). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/**
 * Spawns a server process and resolves once `ready()` answers true (polled every 5 ms), with the
 * milliseconds from spawn to that moment.
 */
export async function spawnServer(args, { ready, env = {}, timeoutMs = 30_000, command = process.execPath }) {
  const started = performance.now()
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  let exited = false
  child.once('exit', () => (exited = true))
  const stop = () =>
    new Promise((resolve) => {
      if (exited) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited before answering:\n${stderr}`)
    if (performance.now() - started > timeoutMs) {
      await stop()
      throw new Error(`${args.join(' ')} did not answer within ${timeoutMs} ms:\n${stderr}`)
    }
    if (await ready().catch(() => false)) return { child, startupMs: performance.now() - started, stop }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** True once `url` answers 200 to a GET with the benchmark key. */
export function answers200(url) {
  return async () => {
    const response = await fetch(url, { headers: { authorization: AUTHORIZATION } })
    await response.arrayBuffer()
    return response.status === 200
  }
}

/** Runs a benchmark script in a fresh Node process and returns the JSON it prints last. */
export function runScript(script, args = [], nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bench', script), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/${script} exited with ${code}`))
      const lines = stdout.trim().split('\n')
      resolve(JSON.parse(lines[lines.length - 1]))
    })
  })
}

/** Resident set size of a process, from /proc (Linux), in bytes. */
export async function residentBytes(pid) {
  const { readFile } = await import('node:fs/promises')
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const match = /VmRSS:\s+(\d+) kB/.exec(status)
  return match ? Number(match[1]) * 1024 : undefined
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); undefined elsewhere. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/**
 * The medians of load rounds per server (`rps`, `p50Ms`, `p99Ms`, and the rounds' rps), plus the
 * median of each extra per-round figure named in `extras`.
 *
 * @param {Record<string, Array<Record<string, number>>>} rounds
 * @param {string[]} [extras]
 */
export function summarizeRounds(rounds, extras = []) {
  /** @type {Record<string, Record<string, unknown>>} */
  const summary = {}
  for (const [name, figures] of Object.entries(rounds)) {
    summary[name] = {
      rps: median(figures.map((f) => f.rps)),
      p50Ms: median(figures.map((f) => f.p50)),
      p99Ms: median(figures.map((f) => f.p99)),
      rounds: figures.map((f) => Math.round(f.rps)),
      ...Object.fromEntries(
        extras.map((extra) => [
          extra,
          figures[0]?.[extra] === undefined ? undefined : median(figures.map((f) => f[extra])),
        ]),
      ),
    }
  }
  return summary
}

/**
 * Starts the CLI (`args` after the bin) with the inspector on a free loopback port, and resolves
 * once it listens: `memory()` runs two full GCs in it and reads `process.memoryUsage()` (what it
 * really holds), `peakRss()` its peak resident memory (`VmHWM`), `stop()` ends it. `bin` is
 * another build's bin/petstore-sandbox.js, to measure a commit before a change.
 */
export async function startInspected(args, { bin = SANDBOX_BIN } = {}) {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', bin, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise((resolve, reject) => {
    const check = () => {
      const listening = /Listening on (\S+)/.exec(output)?.[1]
      if (listening !== undefined && inspectorAddress(output) !== undefined) resolve(listening)
    }
    child.stderr.on('data', (chunk) => {
      output += chunk
      check()
    })
    child.stdout.on('data', (chunk) => {
      output += chunk
      check()
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)))
  })
  const inspector = await inspectMemory(inspectorAddress(output))
  return {
    url,
    pid: child.pid,
    memory: () => inspector.afterGc(),
    peakRss: () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024,
    stop: () =>
      new Promise((resolve) => {
        inspector.close()
        if (child.exitCode !== null) return resolve(undefined)
        child.once('exit', () => resolve(undefined))
        child.kill('SIGKILL')
      }),
  }
}

/**
 * A redis-server of the bench's own, persisting nothing, on a free port, resolved once it accepts
 * connections; `stop` kills it and removes its directory. Needs Debian's redis-server, as the tests do.
 */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-redis-'))
  const port = await freePort()
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  await new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      if (output.includes('Ready to accept connections')) resolve(undefined)
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)))
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true })
          resolve(undefined)
        })
        child.kill('SIGKILL')
      }),
  }
}
