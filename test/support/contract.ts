import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js'
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js'
import { parse } from 'yaml'
import { createRouter } from '../../src/core/contract/create-router.js'
import type { OpenApiDocument } from '../../src/core/contract/openapi-document-type.js'
import { isPageAnswer, pagesContractViolations } from './pages-contract.js'

/** fixtures/openapi.yaml, read as the contract tests hold the sandbox to (not the generated copy). */
export const contractDocument = parse(
  readFileSync(fileURLToPath(import.meta.resolve('../../fixtures/openapi.yaml')), 'utf8'),
) as OpenApiDocument

const operationsPromise = getHttpOperationsFromSpec(structuredClone(contractDocument) as never)
const router = createRouter(contractDocument)
const validateError = new Ajv({ strict: false }).compile(
  (contractDocument.components as { schemas: Record<string, object> }).schemas.Error!,
)

/**
 * Checks one response against fixtures/openapi.yaml and returns what is wrong (empty when it
 * conforms). Responses of operations go through prism's `validateOutput`; responses outside any
 * operation (404, 405, 501, paths outside /v1) must still be Error bodies with rate-limit headers.
 * Rules every response follows whatever the operation: the three X-RateLimit-* headers (spec 8),
 * `Error.status` equal to the HTTP status, and a JSON content type with charset on every body.
 */
export async function contractViolations(method: string, url: string, response: Response): Promise<string[]> {
  // The Node server's pages, outside /v1, answer to their own document (pages-contract.ts).
  if (isPageAnswer(method, url, response)) return pagesContractViolations(method, url, response)
  const violations: string[] = []
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const text = await response.clone().text()
  const body: unknown = text === '' ? undefined : safeJson(text)
  const where = `${method} ${url} -> ${response.status}`

  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    if (!/^\d+$/.test(headers[name] ?? ''))
      violations.push(`${where}: header ${name} is missing or not an integer (${headers[name]})`)
  }
  if (text !== '' && headers['content-type'] !== 'application/json; charset=utf-8') {
    violations.push(`${where}: content-type is ${headers['content-type']}`)
  }
  if (response.status >= 400 && method !== 'HEAD') {
    if (!validateError(body)) violations.push(`${where}: not an Error body: ${text.slice(0, 200)}`)
    else if ((body as { status: number }).status !== response.status)
      violations.push(`${where}: Error.status ${(body as { status: number }).status} differs`)
  }
  if (response.status === 429 && !/^[1-9]\d*$/.test(headers['retry-after'] ?? ''))
    violations.push(`${where}: 429 without a whole-seconds Retry-After`)
  if (response.status === 405 && headers.allow === undefined) violations.push(`${where}: 405 without Allow`)

  const parsed = new URL(url)
  const apiPath = parsed.pathname.startsWith('/v1/') ? parsed.pathname.slice(3) : undefined
  const match = apiPath === undefined ? undefined : router.match(method === 'HEAD' ? 'GET' : method, apiPath)
  if (match?.kind === 'operation' && method !== 'OPTIONS') {
    const operations = await operationsPromise
    const operation = operations.find((candidate) => candidate.iid === match.operation.operationId)!
    const result = validateOutput({
      resource: operation,
      element: { statusCode: response.status, headers, ...(method === 'HEAD' ? {} : { body }) },
    })
    if (result._tag === 'Left') {
      for (const diagnostic of result.left) {
        // A HEAD response has the headers of a GET and no body to hold to the schema.
        if (method === 'HEAD' && diagnostic.path?.[0] === 'body') continue
        violations.push(`${where}: ${diagnostic.message}`)
      }
    }
  } else if (response.status < 400 && method !== 'OPTIONS') {
    violations.push(`${where}: a success outside any operation of the contract`)
  }
  return violations
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
