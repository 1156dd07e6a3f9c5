// A session drop and a session listing with a full request log, and ids near the top, in memory and
// on Redis: `npm run build && node bench/session-churn.mjs [memory|redis|both] [entries] [sessions]
// [drops]` (both, 100000, 1000 and 20 by default). Each mode starts the CLI with `--keep-requests
// <entries> --max-sessions <sessions + 10>` (on Redis, a redis-server of its own and `--redis`),
// restores two capsules of the default session's with `nextId` 1e14 and 2^53-3 and creates in each
// (the ids got, and what a create gets past 2^53-1), then fills the log with `entries` reads naming
// `sessions` sessions round-robin (16 at a time) and times, one call at a time, `GET
// /__sandbox/sessions` (7 times) and `DELETE /__sandbox/sessions/{name}` of `drops` sessions,
// beside a `GET /v1/pets/1` between each: medians. Prints a line per mode, then one JSON line.
import { AUTHORIZATION, SANDBOX_BIN, freePort, median, spawnServer, startRedis, writeKeysFile } from './support.mjs'

const modes = (process.argv[2] ?? 'both') === 'both' ? ['memory', 'redis'] : [process.argv[2]]
const entries = Number(process.argv[3] ?? 100_000)
const sessions = Number(process.argv[4] ?? 1000)
const drops = Number(process.argv[5] ?? 20)
const TOKEN = 'session-churn-admin-token'
const MAX_ID = Number.MAX_SAFE_INTEGER

/** Times one call (the answer read whole) and returns its status, body text and milliseconds. */
async function timed(url, init = {}) {
  const started = performance.now()
  const response = await fetch(url, init)
  const text = await response.text()
  return { status: response.status, text, ms: performance.now() - started }
}

async function measure(mode) {
  const redis = mode === 'redis' ? await startRedis() : undefined
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const args = [
    SANDBOX_BIN,
    'start',
    '--port',
    String(port),
    '--log',
    'off',
    '--keys',
    writeKeysFile(),
    '--admin-token',
    TOKEN,
  ]
  args.push('--keep-requests', String(entries), '--max-sessions', String(sessions + 10))
  if (redis !== undefined) args.push('--redis', redis.url)
  const server = await spawnServer(args, {
    ready: async () => (await fetch(`${base}/readyz`)).status === 200,
  })
  const adminHeaders = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
  const admin = (path, init = {}) => timed(`${base}/__sandbox${path}`, { ...init, headers: adminHeaders })
  const api = (path, session, init = {}) =>
    timed(`${base}/v1${path}`, {
      ...init,
      headers: {
        authorization: AUTHORIZATION,
        'content-type': 'application/json',
        ...(session ? { 'x-sandbox-session': session } : {}),
      },
    })
  const create = (session, i) =>
    api('/pets', session, { method: 'POST', body: JSON.stringify({ name: `Id edge ${i}`, categoryId: 1 }) })
  try {
    // Ids: two capsules of the default session's, restored with their next id moved up.
    const made = JSON.parse((await admin('/sessions/default/capsule')).text)
    const ids = {}
    for (const { name, nextId, count } of [
      { name: 'ids-from-1e14', nextId: 1e14, count: 3 },
      { name: 'ids-at-the-top', nextId: MAX_ID - 2, count: 5 },
    ]) {
      const put = await admin(`/sessions/${name}`, {
        method: 'PUT',
        body: JSON.stringify({ capsule: { ...made, har: undefined, pets: [], nextId } }),
      })
      if (put.status !== 200) throw new Error(`PUT /__sandbox/sessions/${name}: ${put.status} ${put.text}`)
      const answers = []
      for (let i = 0; i < count; i++) answers.push(await create(name, i))
      ids[name] = answers.map(({ status, text }) =>
        status === 201
          ? { status, id: JSON.parse(text).id, plainDigits: /^\{"id":\d+,/.test(text) }
          : { status, body: JSON.parse(text) },
      )
      await admin(`/sessions/${name}`, { method: 'DELETE' })
    }
    // The log filled with reads naming the sessions round-robin.
    const fillStarted = performance.now()
    let next = 0
    const worker = async () => {
      for (let i = next++; i < entries; i = next++) {
        const { status } = await api('/pets/1', `churn-${i % sessions}`)
        if (status !== 200) throw new Error(`GET /v1/pets/1 in churn-${i % sessions}: ${status}`)
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    const fillSeconds = (performance.now() - fillStarted) / 1000
    const listing = []
    const read = []
    // What did not answer 200 (on Redis, a call whose command outlasts its 800 ms is a 503).
    const refused = []
    let listed
    for (let i = 0; i < 7; i++) {
      const answer = await admin('/sessions')
      if (answer.status === 200) listed = JSON.parse(answer.text)
      else refused.push(`GET /__sandbox/sessions: ${answer.status} ${JSON.parse(answer.text).message}`)
      listing.push(answer.ms)
      read.push((await api('/pets/1')).ms)
    }
    const kept = listed?.sessions?.find((s) => s.name === 'churn-0')?.requests
    const drop = []
    for (let i = 0; i < drops; i++) {
      const answer = await admin(`/sessions/churn-${i}`, { method: 'DELETE' })
      if (answer.status !== 200)
        refused.push(`DELETE /__sandbox/sessions/{name}: ${answer.status} ${JSON.parse(answer.text).message}`)
      drop.push(answer.ms)
      read.push((await api('/pets/1')).ms)
    }
    const figures = {
      mode,
      entries,
      sessions,
      fillSeconds: Number(fillSeconds.toFixed(1)),
      keptOfOneSession: kept,
      listingMedianMs: Number(median(listing).toFixed(2)),
      listingMaxMs: Number(Math.max(...listing).toFixed(2)),
      dropMedianMs: Number(median(drop).toFixed(2)),
      dropMaxMs: Number(Math.max(...drop).toFixed(2)),
      readMedianMs: Number(median(read).toFixed(2)),
      // Each distinct refusal with how many times it came.
      refused: Object.fromEntries(
        [...new Set(refused)].map((line) => [line, refused.filter((other) => other === line).length]),
      ),
      ids,
    }
    console.log(
      `${mode}: ${entries} kept entries, ${sessions} sessions (filled in ${figures.fillSeconds} s): listing median ${figures.listingMedianMs} ms (max ${figures.listingMaxMs}), drop median ${figures.dropMedianMs} ms (max ${figures.dropMaxMs}), a read beside them ${figures.readMedianMs} ms`,
    )
    for (const [line, times] of Object.entries(figures.refused)) console.log(`  ${times} × ${line}`)
    for (const [name, answers] of Object.entries(ids))
      console.log(
        `  ${name}: ${answers.map((a) => (a.status === 201 ? a.id : `${a.status} ${a.body.message}`)).join(', ')}`,
      )
    return figures
  } finally {
    await server.stop()
    await redis?.stop()
  }
}

const results = []
for (const mode of modes) results.push(await measure(mode))
process.stdout.write(`${JSON.stringify(results)}\n`)
