// In-process throughput: `fetch` through msw's `setupServer`, one request at a time, the sandbox's
// handlers against a bare msw handler answering the same bytes. Rounds alternate between the two
// in one process (`resetHandlers` swaps them), so both see the same JIT and the same machine load.
// Prints one JSON line.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/index.js'
import { constantListBody, JSON_CONTENT_TYPE } from './constant-body.mjs'
import { AUTHORIZATION, BENCH_KEYS, median } from './support.mjs'
import { setImmediate as nextTurn } from 'node:timers/promises'

const rounds = Number(process.argv[2] ?? 7)
const roundMs = Number(process.argv[3] ?? 2000)
const URL_ = 'http://sandbox.test/v1/pets?limit=20'

const sandbox = createSandbox({ keys: BENCH_KEYS })
await sandbox.ready()
const body = constantListBody()
// The bare handler frames its body as the sandbox does, with a Content-Length, so the ratio is
// the sandbox's pipeline alone. Without one, msw ends the connection after each response and
// the next fetch opens another (bench/in-process-retention.mjs measures what that leaves behind).
const bare = [
  http.get(
    'http://sandbox.test/v1/pets',
    () =>
      new HttpResponse(body, {
        headers: { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(Buffer.byteLength(body)) },
      }),
  ),
]
const server = setupServer()
server.listen({ onUnhandledFrame: 'error' })

async function round(handlers, ms) {
  server.resetHandlers(...handlers)
  let count = 0
  const started = performance.now()
  while (performance.now() - started < ms) {
    const response = await fetch(URL_, { headers: { authorization: AUTHORIZATION } })
    const text = await response.text()
    if (response.status !== 200 || text !== body)
      throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 200)}`)
    count++
    // Each request in a turn of the event loop of its own, as an app's or a test's requests are.
    // A loop that never gets past microtasks starves undici: the connection a response frees is
    // not back in its pool before the next fetch, so every request opened another, and each one
    // stayed open with what it holds (about 20 KB) until the loop yielded. That measured mostly
    // the garbage collector: about 840 µs per request for both handlers against 360 here.
    await nextTurn()
  }
  return ((performance.now() - started) * 1000) / count
}

await round(sandbox.handlers, 500)
await round(bare, 500)
const sandboxUs = []
const bareUs = []
for (let i = 0; i < rounds; i++) {
  sandboxUs.push(await round(sandbox.handlers, roundMs))
  bareUs.push(await round(bare, roundMs))
}
server.close()
const summary = (us) => ({ usPerRequest: median(us), rps: 1e6 / median(us), roundsUs: us.map(Math.round) })
process.stdout.write(
  `${JSON.stringify({
    rounds,
    sandbox: summary(sandboxUs),
    bare: summary(bareUs),
    ratio: median(sandboxUs.map((us, i) => us / bareUs[i])),
  })}\n`,
)
