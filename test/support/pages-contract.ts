import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js'
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js'
import { parse } from 'yaml'
import { createRouter } from '../../src/core/contract/create-router.js'
import type { OpenApiDocument } from '../../src/core/contract/openapi-document-type.js'

/** fixtures/pages-openapi.yaml: the pages the Node server serves outside /v1. */
export const pagesDocument = parse(
  readFileSync(fileURLToPath(import.meta.resolve('../../fixtures/pages-openapi.yaml')), 'utf8'),
) as OpenApiDocument

const operationsPromise = getHttpOperationsFromSpec(structuredClone(pagesDocument) as never)
const router = createRouter(pagesDocument)

/** Whether a response is a page's answer: its path is a page's and it carries the pages' policy. */
export function isPageAnswer(method: string, url: string, response: Response): boolean {
  return (
    router.match(method === 'HEAD' ? 'GET' : method, new URL(url).pathname).kind !== 'not-found' &&
    response.headers.has('content-security-policy')
  )
}

/**
 * Checks one page answer against fixtures/pages-openapi.yaml: the operation's response through
 * prism, the headers every page carries, Error bodies whose status is the HTTP status, Allow on a
 * 405. An event stream's body never ends, so only its head is checked.
 */
export async function pagesContractViolations(method: string, url: string, response: Response): Promise<string[]> {
  const violations: string[] = []
  const where = `${method} ${url} -> ${response.status}`
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const csp = headers['content-security-policy'] ?? ''
  if (!/(^|; )script-src 'self'(;|$)/.test(csp)) violations.push(`${where}: script-src is not 'self' alone: ${csp}`)
  if (headers['x-content-type-options'] !== 'nosniff')
    violations.push(`${where}: X-Content-Type-Options is not nosniff`)
  if (headers['referrer-policy'] !== 'no-referrer') violations.push(`${where}: Referrer-Policy is not no-referrer`)
  if (response.status === 405 && headers.allow !== 'GET, HEAD')
    violations.push(`${where}: 405 without Allow: GET, HEAD`)
  const type = (headers['content-type'] ?? '').split(';')[0]!
  const streaming = type === 'text/event-stream'
  const text = streaming || method === 'HEAD' ? '' : await response.clone().text()
  const body: unknown = type === 'application/json' && text !== '' ? JSON.parse(text) : text
  if (response.status >= 400 && method !== 'HEAD' && (body as { status?: unknown }).status !== response.status)
    violations.push(`${where}: not an Error body`)

  const match = router.match(method === 'HEAD' ? 'GET' : method, new URL(url).pathname)
  if (match.kind !== 'operation') return violations
  const operation = (await operationsPromise).find((candidate) => candidate.iid === match.operation.operationId)!
  const result = validateOutput({
    resource: operation,
    element: { statusCode: response.status, headers, ...(streaming || method === 'HEAD' ? {} : { body }) },
  })
  if (result._tag === 'Left') {
    for (const diagnostic of result.left) {
      // A HEAD answer and an open stream have no body to hold to the schema.
      if ((streaming || method === 'HEAD') && diagnostic.path?.[0] === 'body') continue
      violations.push(`${where}: ${diagnostic.message} at ${diagnostic.path?.join('.')}`)
    }
  }
  return violations
}
