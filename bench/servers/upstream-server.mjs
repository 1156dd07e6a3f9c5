// An upstream for `petstore-sandbox proxy` that keeps every promise one answer shows and costs
// next to nothing: the sandbox's bytes for GET /v1/pets?limit=20 with the rate-limit headers, a
// reset an hour ahead (bench/ab.mjs --figure=proxy-http).
import { createServer } from 'node:http'
import { constantListBody, JSON_CONTENT_TYPE } from '../constant-body.mjs'

const body = Buffer.from(constantListBody())
let remaining = 1_000_000_000
const server = createServer((request, response) => {
  request.resume()
  response.writeHead(200, {
    'content-type': JSON_CONTENT_TYPE,
    'content-length': String(body.byteLength),
    'x-ratelimit-limit': '1000000000',
    'x-ratelimit-remaining': String(--remaining),
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
  })
  response.end(body)
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(
    `Listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1\n`,
  )
})
