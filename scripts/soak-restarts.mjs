#!/usr/bin/env node
// node scripts/soak-restarts.mjs [--seconds 60 --connections 50]   (npm run soak runs it after its own phase)
//
// The crash half of the soak: the CLI with --state, under create-heavy traffic, killed with
// SIGKILL at random moments and started again on the same file and port, for --seconds. Then one
// last start reads back every pet ever acknowledged with a 201. Fails on any 5xx, any acknowledged
// pet missing or different, an id handed out twice, a restart that does not come up, or a second
// process let in on a file a live one holds. Loopback only, bounded. The kill moments come from a
// printed seed; CRASH_SEED=<seed> replays them.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createRandom } from '../dist/core/faults/create-random.js'

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '50' } },
})
const SECONDS = Number(values.seconds)
const CONNECTIONS = Number(values.connections)
if (!(SECONDS > 0 && SECONDS <= 3600) || !(CONNECTIONS > 0 && CONNECTIONS <= 500)) {
  console.error('usage: soak-restarts [--seconds 1..3600] [--connections 1..500]')
  process.exit(2)
}

const given = process.env.CRASH_SEED
const SEED =
  given !== undefined && given !== '' && Number.isSafeInteger(Number(given))
    ? Number(given)
    : Math.floor(Math.random() * 2 ** 31)
const random = createRandom(SEED)
console.log(`soak-restarts: kill moments from seed ${SEED} (CRASH_SEED=${SEED} replays them)`)

const KEY = 'soak-restarts-key'
const dir = await mkdtemp(join(tmpdir(), 'petstore-soak-restarts-'))
const keysFile = join(dir, 'keys.json')
const stateFile = join(dir, 'state.jsonl')
await writeFile(
  keysFile,
  JSON.stringify({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000 }] }),
)
const bin = new URL('../bin/petstore-sandbox.js', import.meta.url).pathname

/** Starts the CLI on the state file; resolves once it listens, with the ms it took. */
function start(port) {
  const began = performance.now()
  const child = spawn(
    process.execPath,
    [bin, 'start', '--port', String(port), '--log', 'off', '--keys', keysFile, '--state', stateFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      const match = /Listening on (http:\/\/\S+\/v1)/.exec(output)
      if (match) resolve({ child, url: match[1], ms: performance.now() - began })
    })
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code} before listening:\n${output}`)))
  })
}

const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const auth = { authorization: `Bearer ${KEY}` }

const acknowledged = new Map()
const stats = {
  runs: 0,
  requests: 0,
  created: 0,
  cutByKill: 0,
  serverErrors: 0,
  duplicateIds: 0,
  restartMs: [],
  secondWriters: 0,
  secondWritersRefused: 0,
}
const problems = []

let port = 0
const deadline = performance.now() + SECONDS * 1000
while (performance.now() < deadline) {
  let run
  try {
    run = await start(port)
  } catch (error) {
    problems.push(`restart ${stats.runs}: ${error.message.split('\n')[0]}`)
    break
  }
  port = Number(new URL(run.url).port)
  if (stats.runs > 0) stats.restartMs.push(run.ms)
  stats.runs++
  let killed = false
  const workers = Array.from({ length: CONNECTIONS }, async (_, worker) => {
    for (let i = 0; !killed; i++) {
      const create = i % 4 !== 3
      try {
        const response = await fetch(`${run.url}/pets${create ? '' : '?limit=20'}`, {
          method: create ? 'POST' : 'GET',
          headers: { ...auth, 'content-type': 'application/json' },
          ...(create
            ? { body: JSON.stringify({ name: `Run ${stats.runs} worker ${worker} #${i}`, categoryId: 1 + (i % 9) }) }
            : {}),
        })
        const body = await response.text()
        stats.requests++
        if (response.status >= 500) stats.serverErrors++
        if (response.status === 201) {
          const pet = JSON.parse(body)
          if (acknowledged.has(pet.id)) stats.duplicateIds++
          acknowledged.set(pet.id, body)
          stats.created++
        } else if (response.status !== 200 && problems.length < 20)
          problems.push(`unexpected ${response.status}: ${body.slice(0, 120)}`)
      } catch (error) {
        if (!killed) {
          if (problems.length < 20) problems.push(`socket error while up: ${error.cause?.code ?? error.message}`)
        } else stats.cutByKill++
      }
    }
  })
  // Now and then a second process tries the same file while this one holds it.
  if (stats.runs % 3 === 1) {
    stats.secondWriters++
    const second = spawn(
      process.execPath,
      [bin, 'start', '--port', '0', '--log', 'off', '--keys', keysFile, '--state', stateFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    second.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise((resolve) => second.once('exit', resolve))
    if (code === 1 && stderr.includes(`is in use by pid ${run.child.pid}`)) stats.secondWritersRefused++
    else problems.push(`a second process on the held file exited ${code}: ${stderr.trim().split('\n')[0]}`)
  }
  await sleep(200 + random() * 4_800)
  killed = true
  run.child.kill('SIGKILL')
  await exited(run.child)
  await Promise.all(workers)
}

// Every acknowledged pet, read back from a last start on the same file.
const last = await start(port)
stats.restartMs.push(last.ms)
let missing = 0
const ids = [...acknowledged.keys()]
for (let lane = 0; lane < ids.length; lane += 50) {
  await Promise.all(
    ids.slice(lane, lane + 50).map(async (id) => {
      const response = await fetch(`${last.url}/pets/${id}`, { headers: auth })
      const body = await response.text()
      if (response.status !== 200 || body !== acknowledged.get(id)) {
        missing++
        if (problems.length < 40) problems.push(`pet ${id}: ${response.status} ${body.slice(0, 120)}`)
      }
    }),
  )
}
last.child.kill('SIGTERM')
const lastExit = await new Promise((resolve) => last.child.once('exit', (code) => resolve(code)))
await rm(dir, { recursive: true, force: true })

const sorted = [...stats.restartMs].sort((a, b) => a - b)
const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN
const checks = [
  ['no 5xx', stats.serverErrors === 0],
  ['every restart came up', problems.every((line) => !line.startsWith('restart '))],
  ['every acknowledged pet kept, identical', missing === 0],
  ['ids unique across runs', stats.duplicateIds === 0],
  [
    'every second process on the held file refused, naming the holder',
    stats.secondWritersRefused === stats.secondWriters,
  ],
  ['nothing else unexpected', problems.length === 0],
  ['the last run exits 0 on SIGTERM', lastExit === 0],
]
console.log(`
Crash soak: ${CONNECTIONS} connections, --state, SIGKILL at moments drawn from seed ${SEED}, for ${SECONDS} s
| figure | value |
|---|---|
| runs (each ended by SIGKILL) | ${stats.runs} |
| requests answered / cut by a kill | ${stats.requests} / ${stats.cutByKill} |
| creates acknowledged (201) | ${stats.created}; ${ids.length} read back after the last restart, ${missing} missing or different |
| restart after SIGKILL, to listening: median / max | ${at(0.5).toFixed(0)} ms / ${(sorted.at(-1) ?? NaN).toFixed(0)} ms |
| second processes on the held file, refused | ${stats.secondWritersRefused} of ${stats.secondWriters} |
| 5xx | ${stats.serverErrors} |
`)
for (const line of problems) console.log(`  ${line}`)
for (const [name, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`)
if (!checks.every(([, ok]) => ok)) console.log(`CRASH_SEED=${SEED} replays these kill moments`)
process.exit(checks.every(([, ok]) => ok) ? 0 : 1)
