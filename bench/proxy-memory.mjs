// The proxy's peak resident memory while an upstream sends one large answer, with and without a
// Content-Length: `npm run build && node bench/proxy-memory.mjs [megabytes] [bin]` (80 and this
// package's CLI by default; give another build's bin/petstore-sandbox.js to compare).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { SANDBOX_BIN } from './support.mjs'

const megabytes = Number(process.argv[2] ?? 80)
const bin = process.argv[3] ?? SANDBOX_BIN

/** @param {boolean} announced */
async function measure(announced) {
  const size = megabytes * 1024 * 1024
  const upstream = createServer((incoming, outgoing) => {
    incoming.resume()
    outgoing.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': String(size) } : {}) })
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
  })
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (upstream.address()).port
  const proxy = spawn(process.execPath, [bin, 'proxy', '--port', '0', '--upstream', `http://127.0.0.1:${port}/v1`, '--log', 'off'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  const url = await new Promise((resolve) =>
    proxy.stdout.on('data', (chunk) => {
      output += chunk
      const match = /Listening on (\S+)/.exec(output)
      if (match) resolve(match[1])
    }),
  )
  const peakMb = () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${proxy.pid}/status`, 'utf8'))[1]) / 1024
  const before = peakMb()
  const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer any' } })
  const body = await response.arrayBuffer()
  const after = peakMb()
  proxy.kill('SIGTERM')
  upstream.closeAllConnections()
  upstream.close()
  return { announced, status: response.status, bytes: body.byteLength, beforeMb: Math.round(before), afterMb: Math.round(after) }
}

for (const announced of [true, false]) {
  const figure = await measure(announced)
  console.log(
    `${megabytes} MB answer ${announced ? 'with Content-Length' : 'chunked'}: ${figure.status} (${figure.bytes} bytes), proxy peak RSS ${figure.beforeMb} MB before, ${figure.afterMb} MB after`,
  )
}
