// The floor under the sandbox's own handler: the same node:http adapter serving one
// ClaimingHandler (the class the sandbox's API handler is) that answers the constant 20-pet body.
// Beside the msw `http.get` floor, it shows what msw's own `run` costs and what the sandbox's
// pipeline adds on top of the adapter. Its answer ends through the one tail, logged nowhere.
import { createAnswerTail } from '../../dist/core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../dist/core/pipeline/claiming-handler.js'
import { startServer } from '../../dist/node/server/start-server.js'
import { constantListBody, JSON_CONTENT_TYPE } from '../constant-body.mjs'

const body = constantListBody()
const response = () => new Response(body, { headers: { 'content-type': JSON_CONTENT_TYPE } })
const handler = new ClaimingHandler({
  claims: (url) => url.pathname === '/v1/pets',
  answer: async () => ({ kind: 'passed', response: response(), status: 200, headers: [] }),
  tail: createAnswerTail(),
  logging: 'none',
})
const server = await startServer({ handlers: [handler], port: Number(process.argv[2] ?? 0), host: '127.0.0.1' })
process.stdout.write(`Listening on ${server.url}\n`)
