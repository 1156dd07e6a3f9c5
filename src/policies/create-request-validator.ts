import type { IHttpOperation } from '@stoplight/types'
import type { OpenApiDocument } from '../contract/openapi-document-type.js'
import { ApiError } from '../errors/api-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { checkParameterSyntax, parameterSyntaxOf, type ParameterSyntax } from './check-parameter-syntax.js'
import { createAjvRequestValidator } from './create-ajv-request-validator.js'
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

/**
 * The Node build's request validator. Requests the Ajv validator finds valid skip prism: prism's
 * per-request cost (about 40 µs) was most of the pipeline's, and loading it costs a few hundred
 * milliseconds that a test file making only valid requests now never pays. Ajv is the validator
 * prism itself runs on the same schemas, and a property test holds the two to the same verdicts
 * and messages. Every request Ajv refuses goes through prism, which decides and words the 400.
 *
 * @example
 * const validator = createRequestValidator(openapiDocument)
 * await validator.validate('listPets', { path: '/pets', query: { limit: '0' } })   // throws 400 "limit must be between 1 and 100"
 */
export function createRequestValidator(document: OpenApiDocument) {
  const fast = createAjvRequestValidator(document)
  const prism = createPrismRequestValidator(document)
  return {
    /** Loads prism now rather than at the first invalid request. */
    warm: prism.warm,
    async validate(operationId: string, request: RequestToValidate): Promise<void> {
      if (fast.accepts(operationId, request)) return
      await prism.validate(operationId, request)
    },
  }
}

/**
 * Validates requests against the OpenAPI document with `@stoplight/prism-http`, and throws a 400
 * `invalid_request` naming every offending field. Prism is imported on first use: it costs a few
 * hundred milliseconds to load, which a test file should not pay before its first request.
 */
export function createPrismRequestValidator(document: OpenApiDocument) {
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
