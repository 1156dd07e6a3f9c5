import { getResponse } from 'msw'
import { createSandbox } from '../../../src/core/sandbox/create-sandbox.js'
import type { Sandbox } from '../../../src/core/sandbox/sandbox.js'
import { createAnswerTail, type Ending } from '../../../src/core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../../src/core/pipeline/claiming-handler.js'
import { startServer } from '../../../src/node/server/start-server.js'

/** The key the upstreams accept: its window is small so --spend-quota stays quick. */
export const UPSTREAM_KEY = 'upstream-test-key-0001'
export const UPSTREAM_PER_MINUTE = 60

/** Answers a request as the sandbox would. */
export type Answer = (request: Request) => Promise<Response>
/** A mutation: what the upstream answers instead, given the request and the sandbox behind it. */
export type Mutation = (request: Request, answer: Answer) => Promise<Response>

export interface Upstream {
  /** The API base, e.g. http://127.0.0.1:41234/v1. */
  url: string
  sandbox: Sandbox
  /** Every request the upstream received, in order, and the most it held at once. */
  received: Array<{ method: string; url: string }>
  maxInFlight: () => number
  close(): Promise<void>
}

/**
 * A real HTTP server on 127.0.0.1 that answers as a fresh sandbox does, through `mutation` when
 * given: the backends that `verify` and `proxy` are tested against. `onSandboxAnswer` sees each
 * answer before the mutation touches it, so the sandbox's own answers stay held to the contract.
 */
export async function startUpstream(
  mutation?: Mutation,
  onSandboxAnswer?: (request: Request, response: Response) => void,
): Promise<Upstream> {
  const sandbox = createSandbox({
    seed: 3,
    pets: 50,
    keys: [{ key: UPSTREAM_KEY, plan: 'enterprise', perMinute: UPSTREAM_PER_MINUTE, perDay: 100_000 }],
  })
  await sandbox.ready()
  const received: Upstream['received'] = []
  let inFlight = 0
  let maxInFlight = 0
  const answer: Answer = async (request) => {
    const copy = request.clone()
    const response = (await getResponse(sandbox.originHandlers, request, { quiet: true }))!
    onSandboxAnswer?.(copy, response.clone())
    return response
  }
  const handler = new ClaimingHandler({
    claims: () => true,
    tail: createAnswerTail(),
    logging: 'none',
    answer: async (adapted): Promise<Ending> => {
      // A plain Request: the sandbox answers the adapter's own request type with a body-less
      // Response the adapter frames itself (src/core/http/to-response.ts), which a mutation cannot read.
      const hasBody = adapted.method !== 'GET' && adapted.method !== 'HEAD'
      const request = new Request(adapted.url, {
        method: adapted.method,
        headers: [...adapted.headers],
        ...(hasBody ? { body: await new Response(adapted.body).arrayBuffer() } : {}),
      })
      received.push({ method: request.method, url: request.url })
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      try {
        const response = await (mutation ? mutation(request, answer) : answer(request))
        return { kind: 'passed', response, status: response.status, headers: response.headers }
      } finally {
        inFlight--
      }
    },
  })
  const server = await startServer({ handlers: [handler], port: 0, host: '127.0.0.1' })
  return { url: server.url, sandbox, received, maxInFlight: () => maxInFlight, close: server.close }
}
