// The machine's limit: a bare node:http server writing the sandbox's bytes, head and body (`--body-only`: the body with
// only its type and length, as the floor servers write it).
import { createServer } from 'node:http'
import { constantListBody, constantListHeaders, JSON_CONTENT_TYPE } from '../constant-body.mjs'

const body = Buffer.from(constantListBody())
const bodyOnly = process.argv.includes('--body-only')
const headers = bodyOnly
  ? () => ({ 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.byteLength) })
  : constantListHeaders(body)
const server = createServer((request, response) => {
  request.resume()
  response.writeHead(200, headers())
  response.end(body)
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(
    `Listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1\n`,
  )
})
