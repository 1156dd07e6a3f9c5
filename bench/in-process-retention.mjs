// What an in-process request leaves behind: the heap still in use after a full GC, and the TCP
// handles still open, per request sent through msw's `setupServer` + `fetch`. Run with
// --expose-gc, once for the sandbox's handlers (`sandbox`) and once for a bare msw handler
// answering the same bytes without a Content-Length, as one is usually written (`bare`), each in
// a fresh process so one's leftovers are never counted as the other's. msw 3.0.5
// (@mswjs/interceptors 0.45.12) ends the connection after a response of unknown length and never
// closes that socket's TCP handle, which keeps the socket and all it reaches; the sandbox's
// responses say their length, so the connection is reused instead (src/core/http/to-response.ts,
// docs/upstream-reports.md). Prints one JSON line.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/index.js'
import { constantListBody, JSON_CONTENT_TYPE } from './constant-body.mjs'
import { AUTHORIZATION, BENCH_KEYS } from './support.mjs'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'

const handlersName = process.argv[2] ?? 'sandbox'
const requests = Number(process.argv[3] ?? 5000)
const URL_ = 'http://sandbox.test/v1/pets?limit=20'
if (globalThis.gc === undefined) throw new Error('run with --expose-gc')

const body = constantListBody()
let handlers
if (handlersName === 'sandbox') {
  const sandbox = createSandbox({ keys: BENCH_KEYS })
  await sandbox.ready()
  handlers = sandbox.handlers
} else {
  handlers = [
    http.get(
      'http://sandbox.test/v1/pets',
      () => new HttpResponse(body, { headers: { 'content-type': JSON_CONTENT_TYPE } }),
    ),
  ]
}
const server = setupServer(...handlers)
server.listen({ onUnhandledFrame: 'error' })

async function send(count) {
  for (let i = 0; i < count; i++) {
    const response = await fetch(URL_, { headers: { authorization: AUTHORIZATION } })
    const text = await response.text()
    if (response.status !== 200 || text !== body)
      throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 200)}`)
    // A turn of the event loop between requests, as in bench/in-process.mjs (which says why).
    await nextTurn()
  }
}
const tcpHandles = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length
const turn = () => sleep(20)
const settle = async () => {
  // Sockets close on the next turns of the event loop, and what a fetch holds through its
  // WeakRefs and FinalizationRegistry entries (undici makes several per request) is let go only
  // after a GC, a turn of the loop for the cleanup tasks, and another GC: two GCs back to back
  // counted about 2 MB of such garbage as kept after 2000 requests.
  for (let i = 0; i < 3; i++) {
    await turn()
    globalThis.gc()
  }
}

// Warm-up past the request log's 100 entries, with code compiled and lazy modules loaded: from
// here the sandbox's heap after a GC is flat, within about 1 MB (steps of 500 requests), so what
// grows with the request count is what requests leave behind.
await send(1000)
await settle()
const before = { heap: process.memoryUsage().heapUsed, tcp: tcpHandles() }
await send(requests)
await settle()
const after = { heap: process.memoryUsage().heapUsed, tcp: tcpHandles() }
server.close()
process.stdout.write(
  `${JSON.stringify({
    handlers: handlersName,
    requests,
    heapBytesPerRequest: (after.heap - before.heap) / requests,
    tcpHandlesPerRequest: (after.tcp - before.tcp) / requests,
  })}\n`,
)
