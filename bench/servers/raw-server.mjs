// The machine's limit: a bare node:http server writing the same bytes as the floor server.
import { createServer } from 'node:http'
import { constantListBody, JSON_CONTENT_TYPE } from '../constant-body.mjs'

const body = Buffer.from(constantListBody())
const server = createServer((request, response) => {
  request.resume()
  response.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.byteLength) })
  response.end(body)
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(
    `Listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1\n`,
  )
})
