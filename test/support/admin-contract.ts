import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js'
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js'
import { parse } from 'yaml'
import { createRouter } from '../../src/core/contract/create-router.js'
import type { OpenApiDocument } from '../../src/core/contract/openapi-document-type.js'
import { createContractChecker } from './contract-checker.js'

/** fixtures/admin-openapi.yaml, the contract of the admin API under /__sandbox/. */
export const adminDocument = parse(
  readFileSync(fileURLToPath(import.meta.resolve('../../fixtures/admin-openapi.yaml')), 'utf8'),
) as OpenApiDocument

const operationsPromise = getHttpOperationsFromSpec(structuredClone(adminDocument) as never)
const router = createRouter(adminDocument)

/**
 * Checks one admin response against fixtures/admin-openapi.yaml (the same way contract.ts holds
 * the API to fixtures/openapi.yaml): the operation's response schema through prism, a JSON content
 * type, Error bodies whose status equals the HTTP status, and `WWW-Authenticate` on every 401.
 */
export async function adminContractViolations(method: string, url: string, response: Response): Promise<string[]> {
  const violations: string[] = []
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const text = await response.clone().text()
  const body: unknown = text === '' ? undefined : JSON.parse(text)
  const where = `${method} ${url} -> ${response.status}`
  if (headers['content-type'] !== 'application/json; charset=utf-8')
    violations.push(`${where}: content-type is ${headers['content-type']}`)
  if (response.status >= 400 && (body as { status?: number } | undefined)?.status !== response.status)
    violations.push(`${where}: Error.status differs`)
  if (response.status === 401 && headers['www-authenticate'] === undefined)
    violations.push(`${where}: 401 without WWW-Authenticate`)
  if (response.status === 405 && headers.allow === undefined) violations.push(`${where}: 405 without Allow`)

  const path = new URL(url).pathname.replace(/^\/__sandbox/, '')
  const match = router.match(method, path)
  if (match.kind !== 'operation') {
    if (response.status < 400) violations.push(`${where}: a success outside any admin operation`)
    else if (typeof body !== 'object' || body === null || !('code' in body) || !('message' in body))
      violations.push(`${where}: not an Error body`)
    return violations
  }
  const operation = (await operationsPromise).find((candidate) => candidate.iid === match.operation.operationId)!
  const result = validateOutput({ resource: operation, element: { statusCode: response.status, headers, body } })
  if (result._tag === 'Left')
    for (const diagnostic of result.left)
      violations.push(`${where}: ${diagnostic.message} at ${diagnostic.path?.join('.')}`)
  return violations
}

/** Collects admin contract checks and fails the test in `afterEach` on any violation. */
export function createAdminContractChecker() {
  return createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')
}

/** An admin call's options: `session` names the session it acts on (D34), `json` is its body. */
export type AdminCallInit = RequestInit & { session?: string; json?: unknown }

/**
 * A caller of the admin API at `origin()` with `token`, every answer held to the admin contract
 * by `checker` (one made by createAdminContractChecker, so a violation fails the test).
 */
export function createAdminCaller(
  origin: () => string,
  token: string,
  checker: ReturnType<typeof createAdminContractChecker>,
) {
  return async function admin(path: string, init: AdminCallInit = {}): Promise<Response> {
    const { session, json, ...rest } = init
    const headers = new Headers(rest.headers)
    headers.set('authorization', `Bearer ${token}`)
    if (session !== undefined) headers.set('x-sandbox-session', session)
    if (json !== undefined) headers.set('content-type', 'application/json')
    const target = `${origin()}/__sandbox${path}`
    const response = await fetch(target, {
      ...rest,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    })
    checker.check(rest.method ?? 'GET', target, response)
    return response
  }
}
