// The floor of the design: the sandbox's own node:http adapter (dist/node/server/start-server.js) serving
// one msw handler that answers a constant 20-pet body. No policy, no validation, no store.
import { http, HttpResponse } from 'msw'
import { startServer } from '../../dist/node/server/start-server.js'
import { constantListBody, JSON_CONTENT_TYPE } from '../constant-body.mjs'

const body = constantListBody()
const handler = http.get('*/v1/pets', () => new HttpResponse(body, { headers: { 'content-type': JSON_CONTENT_TYPE } }))
const server = await startServer({ handlers: [handler], port: Number(process.argv[2] ?? 0), host: '127.0.0.1' })
process.stdout.write(`Listening on ${server.url}\n`)
