import { createRouter } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import { checkHeaders } from './check-headers.js'
import { checkListAnswer } from './check-list-answer.js'
import { createResponseValidator } from './create-response-validator.js'
import type { Exchange } from './exchange.js'
import type { Violation } from './violation.js'
import { isNewPet } from './is-new-pet.js'

/**
 * The promises one exchange shows by itself, whoever sent it: `verify` runs this on every answer
 * it gets, `proxy` on every answer it forwards. Promises that need a sequence of requests (a round
 * trip, a count-down) are the verify scenarios' work (run-verify.ts).
 */
export function createExchangeChecker(basePath: string) {
  const router = createRouter(openapiDocument)
  const validator = createResponseValidator()

  return {
    /** Loads the validator now rather than at the first answer. */
    warm: () => validator.check('listPets', { status: 200, headers: {}, body: [] }).then(() => undefined),
    async check(exchange: Exchange): Promise<Violation[]> {
      const match = router.match(exchange.method, exchange.path)
      const operationId = match.kind === 'operation' ? match.operation.operationId : undefined
      const found: Array<{ promise: string; expected: string }> = []
      if (operationId !== undefined) {
        const problems = await validator.check(operationId, exchange)
        const type = exchange.headers['content-type'] ?? ''
        if (exchange.bodyText !== '' && !/^application\/json\s*(;|$)/i.test(type)) problems.unshift(`a JSON body (content-type ${type || 'missing'})`)
        else if (exchange.bodyText !== '' && exchange.body === undefined) problems.unshift('a body that parses as JSON')
        for (const problem of problems) found.push({ promise: 'matches-contract', expected: problem })
      }
      if (exchange.status >= 400) {
        const body = exchange.body as { code?: unknown; message?: unknown; status?: unknown } | undefined
        if (typeof body !== 'object' || body === null || typeof body.code !== 'string' || typeof body.message !== 'string') {
          found.push({ promise: 'error-bodies', expected: `an Error body { code, message, status: ${exchange.status} }` })
        } else if (body.status !== exchange.status) {
          found.push({ promise: 'error-bodies', expected: `Error.status ${exchange.status}, got ${String(body.status)}` })
        }
      }
      // A 429 may come first: requests without a valid key are rate-limited per address too (D16).
      const refused = exchange.status === 401 || exchange.status === 429
      if (exchange.credential === 'none' && !refused) found.push({ promise: 'unauthorized-without-key', expected: '401 without a key' })
      if (exchange.credential === 'wrong-key' && !refused) found.push({ promise: 'unauthorized-with-wrong-key', expected: '401 with a wrong key' })
      found.push(...checkHeaders(exchange, operationId, basePath))
      if (operationId === 'listPets') found.push(...checkListAnswer(exchange))
      if (operationId === 'createPet') found.push(...checkCreateAnswer(exchange))
      return found.map((entry) => ({ ...entry, exchange }))
    },
  }
}

export type ExchangeChecker = ReturnType<typeof createExchangeChecker>

function checkCreateAnswer(exchange: Exchange): Array<{ promise: string; expected: string }> {
  if (!isNewPet(exchange.requestBody)) {
    return exchange.status < 400 ? [{ promise: 'invalid-new-pet-refused', expected: '400 for a body that is not a NewPet' }] : []
  }
  if (exchange.status >= 300) return []
  if (exchange.status !== 201) return [{ promise: 'create-then-get', expected: `201 Created, got ${exchange.status}` }]
  const sent = exchange.requestBody as Record<string, unknown>
  const pet = exchange.body as Record<string, unknown> | undefined
  const differs = ['name', 'categoryId', 'status'].filter((field) => sent[field] !== undefined && pet?.[field] !== sent[field])
  return differs.length > 0 ? [{ promise: 'create-then-get', expected: `the created Pet to echo ${differs.join(', ')}` }] : []
}
