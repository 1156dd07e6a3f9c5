// What `petstore-sandbox proxy` holds in memory, in four situations (BENCHMARKS.md, "The proxy's
// memory"): `npm run build && node_modules/.bin/node bench/proxy-memory.mjs <what> [bin]`, where
// <what> is
//   answer [megabytes]  one upstream answer of that size (80 by default), with a Content-Length and chunked: peak RSS
//   bodies [count]      that many creates of 15 MiB (30 by default), --keep-requests 100: what it holds after two full GCs
//   bomb                an upstream answer of 1,617 bytes of brotli that decodes to 1 GiB, three times: peak RSS, and the
//                       slowest /healthz asked every 20 ms meanwhile
//   slow [count]        that many creates of 15 MiB (100 by default) that stall after 8 MiB, without and with
//                       --fallback: what it holds after two full GCs while they stall
// and [bin] another build's bin/petstore-sandbox.js, to measure a commit before a change.
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { brotliCompressSync, constants } from 'node:zlib'
import { listenOnLoopback } from '../test/support/raw-http.ts'
import { SANDBOX_BIN, startInspected } from './support.mjs'

const [what = 'bodies', count, binArgument] = process.argv.slice(2)
const bin = binArgument ?? SANDBOX_BIN
const MiB = 1024 * 1024
const mib = (bytes) => (bytes / MiB).toFixed(1)
const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '4102444800' }

/** An upstream that reads every body to its end without keeping it, and answers `answer(request)`. */
async function upstream(answer) {
  let received = 0
  const server = await listenOnLoopback((incoming, outgoing) => {
    incoming.on('data', (chunk) => (received += chunk.length))
    incoming.on('end', () => answer(outgoing))
  })
  return { url: `${server.origin}/v1`, received: () => received, close: server.close }
}

async function measure(upstreamAnswer, proxyArgs, run) {
  const up = await upstream(upstreamAnswer)
  const proxy = await startInspected(['proxy', '--port', '0', '--upstream', up.url, '--log', 'off', ...proxyArgs], {
    bin,
  })
  try {
    return await run(proxy, up)
  } finally {
    await proxy.stop()
    await up.close()
  }
}

const created = (outgoing) => {
  outgoing.writeHead(201, { 'content-type': 'application/json', ...RATE_LIMIT })
  outgoing.end('{"id":51,"name":"Rex","categoryId":1}')
}

if (what === 'answer') {
  const megabytes = count ? Number(count) : 80
  for (const announced of [true, false]) {
    const size = megabytes * 1024 * 1024
    const large = (outgoing) => {
      outgoing.writeHead(200, {
        'content-type': 'application/json',
        ...(announced ? { 'content-length': String(size) } : {}),
      })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < size && !outgoing.destroyed) {
          sent += chunk.length
          if (!outgoing.write(chunk)) return void outgoing.once('drain', pump)
        }
        outgoing.end()
      }
      pump()
    }
    const figure = await measure(large, [], async (proxy) => {
      const before = proxy.peakRss()
      const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer any' } })
      const body = await response.arrayBuffer()
      return { status: response.status, bytes: body.byteLength, before, after: proxy.peakRss() }
    })
    console.log(
      `${megabytes} MB answer ${announced ? 'with Content-Length' : 'chunked'}: ${figure.status} (${figure.bytes} bytes), peak RSS ${mib(figure.before)} → ${mib(figure.after)} MiB`,
    )
  }
} else if (what === 'bodies') {
  const requests = count ? Number(count) : 30
  await measure(created, [], async (proxy) => {
    const before = await proxy.memory()
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 }).padEnd(15 * MiB, ' ')
    for (let i = 0; i < requests; i++) {
      const response = await fetch(`${proxy.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer any', 'content-type': 'application/json' },
        body,
      })
      await response.arrayBuffer()
    }
    const after = await proxy.memory()
    console.log(
      `${requests} creates of 15 MiB, --keep-requests 100, after two full GCs: array buffers ${mib(before.arrayBuffers)} → ${mib(after.arrayBuffers)} MiB, ` +
        `external ${mib(before.external)} → ${mib(after.external)} MiB, heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)} MiB, RSS ${mib(after.rss)} MiB`,
    )
  })
} else if (what === 'bomb') {
  const bomb = brotliCompressSync(Buffer.alloc(1024 * MiB, 32), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
  const bombing = (outgoing) => {
    outgoing.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br', ...RATE_LIMIT })
    outgoing.end(bomb)
  }
  await measure(bombing, [], async (proxy) => {
    const origin = proxy.url.replace(/\/v1$/, '')
    const failed = []
    /** The slowest /healthz asked every 20 ms while `work` runs, and 3 s after (the check runs once the answer is on its way). */
    const slowestDuring = async (work) => {
      let slowest = 0
      let asking = true
      const probes = (async () => {
        while (asking) {
          const started = performance.now()
          await fetch(`${origin}/healthz`)
            .then((response) => response.arrayBuffer())
            .catch((error) => failed.push(`/healthz: ${error.cause?.code ?? error.message}`))
          slowest = Math.max(slowest, performance.now() - started)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })()
      await work()
      await new Promise((resolve) => setTimeout(resolve, 3000))
      asking = false
      await probes
      return slowest
    }
    // The machine's own noise: the same probes with nothing else asked.
    const quiet = await slowestDuring(async () => {})
    const before = proxy.peakRss()
    const slowest = await slowestDuring(async () => {
      for (let i = 0; i < 3; i++)
        await rawGet(`${proxy.url}/pets`).catch((error) => failed.push(`GET /v1/pets: ${error.code ?? error.message}`))
    })
    let peak = 'gone'
    try {
      peak = `${mib(proxy.peakRss())} MiB`
    } catch {
      // The process is gone: its memory cannot be read.
    }
    console.log(
      `3 answers of ${bomb.length} bytes of brotli (1 GiB decoded): peak RSS ${mib(before)} MiB → ${peak}; slowest /healthz meanwhile ${slowest.toFixed(1)} ms (${quiet.toFixed(1)} ms with nothing else asked)` +
        (failed.length === 0 ? '' : `; failed: ${[...new Set(failed)].join(', ')}`),
    )
  })
} else if (what === 'slow') {
  const clients = count ? Number(count) : 100
  // The upstream waits for the rest of each body as long as the clients stall: no timeout ends them.
  for (const fallback of [false, true])
    await measure(created, [...(fallback ? ['--fallback'] : []), '--upstream-timeout', '600000'], async (proxy, up) => {
      const before = await proxy.memory()
      const { host, port } = new URL(proxy.url)
      const head = `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer any\r\nContent-Type: application/json\r\nContent-Length: ${15 * MiB}\r\n\r\n`
      const sockets = Array.from({ length: clients }, () => {
        const socket = connect(Number(port), '127.0.0.1')
        socket.on('error', () => {})
        socket.write(head)
        socket.write(Buffer.alloc(8 * MiB, 32))
        return socket
      })
      // Settled: what the proxy has read of the bodies, and passed on, has not changed for a second.
      const sample = () => `${up.received()} ${sockets.reduce((sum, socket) => sum + socket.writableLength, 0)}`
      let last = ''
      while (sample() !== last) {
        last = sample()
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
      const during = await proxy.memory()
      console.log(
        `${clients} creates of 15 MiB stalled after 8 MiB${fallback ? ', --fallback' : ''}, after two full GCs: array buffers ${mib(before.arrayBuffers)} → ${mib(during.arrayBuffers)} MiB, ` +
          `heap ${mib(before.heapUsed)} → ${mib(during.heapUsed)} MiB, RSS ${mib(during.rss)} MiB; the upstream received ${mib(up.received())} MiB`,
      )
      for (const socket of sockets) socket.destroy()
    })
} else {
  console.error(`unknown measurement ${what}: answer, bodies, bomb or slow`)
  process.exitCode = 2
}

/** GET through node:http, which leaves an encoded body as it came. */
function rawGet(url) {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { authorization: 'Bearer any', 'accept-encoding': 'br' } }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode))
    })
      .on('error', reject)
      .end()
  })
}
