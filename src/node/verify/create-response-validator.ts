import type { IHttpOperation } from '@stoplight/types'
import { openapiDocument } from '../../core/contract/openapi-document.js'

/**
 * Validates answers against fixtures/openapi.yaml with prism's `validateOutput` (status code,
 * required headers and body schema per operation), the validator the test suite's own contract
 * check uses, so the sandbox and a backend are judged alike. Prism loads on first use.
 */
export function createResponseValidator() {
  let loading: Promise<{ operations: Map<string, IHttpOperation>; validateOutput: ValidateOutput }> | undefined
  const load = () => (loading ??= compile())

  return {
    /** What is wrong with this answer of `operationId` (empty when it conforms). */
    async check(operationId: string, answer: { status: number; headers: Record<string, string>; body: unknown }): Promise<string[]> {
      const { operations, validateOutput } = await load()
      const operation = operations.get(operationId)
      if (operation === undefined) return []
      const result = validateOutput({ resource: operation, element: { statusCode: answer.status, headers: answer.headers, body: answer.body } })
      if (result._tag === 'Right') return []
      return result.left.map((diagnostic) => {
        const where = diagnostic.path?.length ? ` (${diagnostic.path.join('.')})` : ''
        return `${diagnostic.message}${where}`
      })
    },
  }
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>

type ValidateOutput = typeof import('@stoplight/prism-http/dist/validator/index.js')['validateOutput']

async function compile() {
  const [{ getHttpOperationsFromSpec }, { validateOutput }] = await Promise.all([
    import('@stoplight/prism-http/dist/utils/operations.js'),
    import('@stoplight/prism-http/dist/validator/index.js'),
  ])
  // Prism dereferences in place: it gets a copy so the shared document stays as written.
  const list = await getHttpOperationsFromSpec(structuredClone(openapiDocument) as never)
  return { operations: new Map(list.map((operation) => [operation.iid ?? operation.id, operation])), validateOutput }
}
