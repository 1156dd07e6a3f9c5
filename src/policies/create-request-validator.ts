import type { IHttpOperation } from '@stoplight/types'
import type { OpenApiDocument } from '../contract/openapi-document-type.js'
import { ApiError } from '../errors/api-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { checkParameterSyntax, parameterSyntaxOf, type ParameterSyntax } from './check-parameter-syntax.js'
import { compileFastCheck, type FastCheck } from './compile-fast-check.js'
import { describeDiagnostics, type Diagnostic, type ParameterBounds } from './describe-diagnostics.js'

export interface RequestToValidate {
  /** The path below the `/v1` prefix, percent-decoded: prism knows nothing of server prefixes. */
  path: string
  query: Record<string, string | string[]>
  body?: unknown
}

interface CompiledOperation {
  operation: IHttpOperation
  bounds: ParameterBounds
  syntax: ParameterSyntax[]
}

type ValidateInput = (typeof import('@stoplight/prism-http/dist/validator/index.js'))['validateInput']

// The prism operations derived from a document never change, so sandboxes share them: a test
// suite that creates a sandbox per test pays the dereferencing once.
const compiled = new WeakMap<OpenApiDocument, Promise<{ operations: Map<string, CompiledOperation>; validateInput: ValidateInput }>>()
const fastChecks = new WeakMap<OpenApiDocument, Map<string, FastCheck>>()

/**
 * Validates requests against the OpenAPI document with `@stoplight/prism-http`, and throws a 400
 * `invalid_request` naming every offending field. Prism is imported on first use: it costs a few
 * hundred milliseconds to load, which a test file should not pay before its first request.
 *
 * Requests that a per-operation fast check (compileFastCheck) finds certainly valid skip prism:
 * its per-request cost was most of the pipeline's, and such a request is one prism accepts too.
 * Everything else, every invalid request among it, goes through prism exactly as before.
 */
export function createRequestValidator(document: OpenApiDocument) {
  let checks = fastChecks.get(document)
  if (checks === undefined) {
    checks = compileFastChecks(document)
    fastChecks.set(document, checks)
  }
  const fast = checks

  function load() {
    let loading = compiled.get(document)
    if (loading === undefined) {
      loading = compile(document)
      compiled.set(document, loading)
    }
    return loading
  }

  return {
    /** Starts loading prism and compiling the document, so the first request does not wait. */
    warm: (): Promise<void> => load().then(() => undefined),

    async validate(operationId: string, request: RequestToValidate): Promise<void> {
      if (fast.get(operationId)?.(request) === true) return
      const { operations, validateInput } = await load()
      const entry = operations.get(operationId)
      if (entry === undefined) throw new Error(`operation ${operationId} is not in the document`)
      checkParameterSyntax(entry.syntax, entry.operation.path, request.path, request.query)
      const hasBody = request.body !== undefined
      const result = validateInput({
        resource: entry.operation,
        element: {
          method: entry.operation.method as 'get',
          url: { path: request.path, query: request.query },
          // The body was read and parsed already; these headers make prism validate it whatever
          // framing (chunked, no Content-Length) the client used.
          headers: hasBody ? { 'content-type': 'application/json', 'content-length': '1' } : {},
          ...(hasBody ? { body: request.body } : {}),
        },
      })
      if (result._tag === 'Left') {
        throw new ApiError(400, ErrorCode.invalidRequest, describeDiagnostics(result.left as Diagnostic[], entry.bounds))
      }
    },
  }
}

export type RequestValidator = ReturnType<typeof createRequestValidator>

function compileFastChecks(document: OpenApiDocument): Map<string, FastCheck> {
  const checks = new Map<string, FastCheck>()
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const operationId = (operation as { operationId?: unknown } | null)?.operationId
      if (typeof operationId !== 'string') continue
      const check = compileFastCheck(document, path, method)
      if (check !== undefined) checks.set(operationId, check)
    }
  }
  return checks
}

async function compile(document: OpenApiDocument) {
  const [{ getHttpOperationsFromSpec }, { validateInput }] = await Promise.all([
    import('@stoplight/prism-http/dist/utils/operations.js'),
    import('@stoplight/prism-http/dist/validator/index.js'),
  ])
  // Prism dereferences in place: give it a copy so the shared document stays as written.
  const operations = await getHttpOperationsFromSpec(structuredClone(document) as never)
  const byId = new Map<string, CompiledOperation>()
  for (const operation of operations) {
    const bounds: ParameterBounds = {}
    for (const parameter of [...(operation.request?.query ?? []), ...(operation.request?.path ?? [])]) {
      const schema = (parameter.schema ?? {}) as { minimum?: number; maximum?: number }
      bounds[parameter.name.toLowerCase()] = {
        name: parameter.name,
        ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
      }
    }
    byId.set(operation.iid ?? operation.id, { operation, bounds, syntax: parameterSyntaxOf(operation) })
  }
  return { operations: byId, validateInput }
}
