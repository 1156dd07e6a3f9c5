// The floor under the sandbox's own handler: the same node:http adapter serving one
// ClaimingHandler (the class the sandbox's API handler is) that replies the constant 20-pet body
// with the sandbox's head, as JSON text the tail hands the adapter unbuilt, as the sandbox's own
// replies are. Beside the msw `http.get` floor, it shows what msw's own `run` costs and what the
// sandbox's pipeline adds on top of the adapter. Its answer ends through the one tail, logged nowhere.
import { createAnswerTail } from '../../dist/core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../dist/core/pipeline/claiming-handler.js'
import { JsonText } from '../../dist/core/http/to-response.js'
import { startServer } from '../../dist/node/server/start-server.js'
import { constantListBody, constantListHeaders } from '../constant-body.mjs'

const body = new JsonText(constantListBody())
const head = constantListHeaders(Buffer.from(body.text))
const handler = new ClaimingHandler({
  claims: (url) => url.pathname === '/v1/pets',
  answer: async (_request, _url, { headers }) => {
    // The tail sets the content type, the adapter the length.
    for (const [name, value] of Object.entries(head()))
      if (name !== 'content-type' && name !== 'content-length') headers.set(name, value)
    return { kind: 'reply', reply: { status: 200, headers, body } }
  },
  tail: createAnswerTail(),
  logging: 'none',
})
const server = await startServer({ handlers: [handler], port: Number(process.argv[2] ?? 0), host: '127.0.0.1' })
process.stdout.write(`Listening on ${server.url}\n`)
