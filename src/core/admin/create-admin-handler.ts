import type { SandboxRequest } from '../http/sandbox-request.js'
import type { HttpHandler } from 'msw'
import { parseBearer } from '../auth/create-key-ring.js'
import { adminOpenapiDocument } from '../contract/admin-openapi-document.js'
import { ADMIN_PREFIX, isAdminPath } from '../contract/admin-prefix.js'
import { createRouter } from '../contract/create-router.js'
import { ConfigError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Reply } from '../http/reply.js'
import { queryOf } from '../http/query-of.js'
import type { AnswerTail } from '../pipeline/answer-tail.js'
import { ClaimingHandler } from '../pipeline/claiming-handler.js'
import { createRequestValidator } from '../validation/create-request-validator.js'
import { MAX_BODY_BYTES, MAX_CAPSULE_BYTES, readJsonBody } from '../validation/read-json-body.js'
import type { AdminControls } from './admin-controls.js'
import { createAdminOperations, SESSION_OPERATIONS } from './create-admin-operations.js'
import { SessionConflict, SessionsNotServed } from '../sessions/session-errors.js'
import { requestedSession, sessionNameRefusal } from '../sessions/session-name.js'
import type { Secrets } from '../auth/create-masker.js'
import { CLIENT_ADDRESS_HEADER, LOCAL_CLIENT } from '../pipeline/admit.js'
import type { AdminGate } from './create-admin-gate.js'

export { ADMIN_PREFIX } from '../contract/admin-prefix.js'

export interface AdminHandlerOptions {
  controls: AdminControls
  gate: AdminGate
  /** Claims only this origin's admin paths; any when undefined. */
  origin: string | undefined
  tail: AnswerTail
}

// Served at the origin's root (core/probes).
const PROBE_OPERATIONS = ['probeHealth', 'probeReady']

/** Creates the admin API, routed and validated from fixtures/admin-openapi.yaml. */
export function createAdminHandler({ controls, gate, origin, tail }: AdminHandlerOptions): HttpHandler {
  const router = createRouter(adminOpenapiDocument)
  const validator = createRequestValidator(adminOpenapiDocument)
  const operations = createAdminOperations(controls)

  async function answer(request: SandboxRequest, url: URL, headers: Headers): Promise<Reply> {
    const path = url.pathname.slice(ADMIN_PREFIX.length)
    const method = request.method.toUpperCase()
    const route = router.match(method, path)
    if (
      route.kind === 'not-found' ||
      (route.kind === 'operation' && PROBE_OPERATIONS.includes(route.operation.operationId))
    ) {
      throw new HttpError(404, ErrorCode.notFound, `no admin resource at ${url.pathname}`)
    }
    if (route.kind === 'method-not-allowed') {
      const allow = route.allow.join(', ')
      throw new HttpError(
        405,
        ErrorCode.methodNotAllowed,
        `${method} is not allowed on ${url.pathname}; allowed: ${allow}`,
        { allow },
      )
    }
    const { operationId, readsBody } = route.operation
    const operation = operations[operationId]
    if (operation === undefined)
      throw new HttpError(404, ErrorCode.notFound, `${url.pathname} is served only by petstore-sandbox proxy`)
    const params: Record<string, string> = {}
    for (const [name, value] of Object.entries(route.params)) params[name] = decode(value, name)
    const query = queryOf(url)
    // Before the schema, so a bad name is told the rule (D34).
    const named =
      operationId in SESSION_OPERATIONS
        ? namedSession(request, query, (name, where) => checkName(name, where, controls.secrets()))
        : undefined
    // A key may not name a new session (D35).
    if (params.name !== undefined)
      checkName(
        params.name,
        'the session name in the path',
        operationId === 'putSession' || operationId === 'addSessionKey' ? controls.secrets() : undefined,
      )
    // Lets a capsule be larger than any other body (D34).
    const body = readsBody
      ? await readJsonBody(
          request,
          undefined,
          operationId === 'putSession' ? MAX_CAPSULE_BYTES : MAX_BODY_BYTES,
          `a JSON object, as the admin document's ${operationId} describes`,
        )
      : undefined
    validator.validate(operationId, { path: decode(path, 'path'), query, ...(body === undefined ? {} : { body }) })
    try {
      return {
        status: route.operation.successStatus,
        headers,
        body: await operation({ params, query, body, session: () => controls.session(named) }),
      }
    } catch (error) {
      if (error instanceof SessionsNotServed) throw new HttpError(501, ErrorCode.notImplemented, error.message)
      if (error instanceof SessionConflict) throw new HttpError(409, ErrorCode.conflict, error.message)
      if (error instanceof ConfigError) throw new HttpError(400, ErrorCode.invalidRequest, error.message)
      throw error
    }
  }

  // First in line: msw's run() would clone every request.
  return new ClaimingHandler({
    claims: (url) => (origin === undefined || url.origin === origin) && isAdminPath(url.pathname),
    answer: async (request, url, exchange) => {
      exchange.headers.set('cache-control', 'no-store')
      // Only the gate's refusals: the calls it admits would crowd the API's out.
      exchange.logging = 'listed'
      gate.admit(
        parseBearer(request.headers.get('authorization')),
        request.headers.get(CLIENT_ADDRESS_HEADER) ?? LOCAL_CLIENT,
      )
      exchange.logging = 'watched'
      return { kind: 'reply', reply: await answer(request, url, exchange.headers) }
    },
    tail,
    logging: 'watched',
  })
}

/** Reads the session a call names by header (D43) or `?session=`. */
function namedSession(
  request: SandboxRequest,
  query: Record<string, string | string[]>,
  checkName: (name: string, where: string) => void,
): string | undefined {
  const header = requestedSession((name) => request.headers.get(name))
  const inQuery = query.session
  const fromQuery = typeof inQuery === 'string' ? inQuery : inQuery?.[0]
  if (header !== undefined) checkName(header.name, header.where)
  if (fromQuery !== undefined) checkName(fromQuery, 'session')
  if (header !== undefined && fromQuery !== undefined && header.name !== fromQuery) {
    throw new HttpError(
      400,
      ErrorCode.invalidRequest,
      `${header.where} and ?session= name different sessions; name one`,
    )
  }
  return header?.name ?? fromQuery
}

/** Refuses a name no session may have; with `secrets`, a key (D35). */
function checkName(name: string, where: string, secrets?: Secrets): void {
  const refusal = sessionNameRefusal(name, where, secrets)
  if (refusal !== undefined) throw new HttpError(400, ErrorCode.invalidRequest, refusal)
}

function decode(value: string, name: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new HttpError(400, ErrorCode.invalidRequest, `${name} is not valid percent-encoded UTF-8`)
  }
}
