import type { IHttpOperation } from '@stoplight/types'
import type { OpenApiDocument } from '../../src/core/contract/openapi-document-type.js'
import { HttpError } from '../../src/core/errors/http-error.js'
import { ErrorCode } from '../../src/core/errors/error-code.js'
import {
  checkParameterSyntax,
  parameterSyntaxOf,
  type ParameterSyntax,
} from '../../src/core/validation/check-parameter-syntax.js'
import type { RequestToValidate } from '../../src/core/validation/create-request-validator.js'

// The oracle the sandbox's validator is held to: @stoplight/prism-http's own request validation
// of the same document, with the sandbox's D3 syntax rules in front. Prism's verdicts and the
// fields its diagnostics name are the oracle's; the words are the sandbox's one describer's.

/** A prism diagnostic, as much of it as we read. */
interface Diagnostic {
  path?: Array<string | number>
  code?: string | number
  message: string
}

interface CompiledOperation {
  operation: IHttpOperation
  /** Declared parameter names by their lower case: prism matches query names without case. */
  names: Record<string, string>
  syntax: ParameterSyntax[]
}

type ValidateInput = typeof import('@stoplight/prism-http/dist/validator/index.js')['validateInput']

// The prism operations derived from a document never change, so sandboxes share them: a test
// suite that creates a sandbox per test pays the dereferencing once.
const compiled = new WeakMap<
  OpenApiDocument,
  Promise<{ operations: Map<string, CompiledOperation>; validateInput: ValidateInput }>
>()

/**
 * Validates requests against the OpenAPI document with `@stoplight/prism-http`: `fields` gives the
 * fields prism finds at fault (empty when it accepts the request), named as the sandbox's
 * describer names them; `validate` throws a 400 `invalid_request` when there are any. Prism is
 * imported on first use.
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

  async function fields(operationId: string, request: RequestToValidate): Promise<string[]> {
    const { operations, validateInput } = await load()
    const entry = operations.get(operationId)
    if (entry === undefined) throw new Error(`operation ${operationId} is not in the document`)
    checkParameterSyntax(entry.syntax, entry.operation.path, request.path, request.query)
    const path = withSafeInt64s(entry, request.path)
    const hasBody = request.body !== undefined
    const result = validateInput({
      resource: entry.operation,
      element: {
        method: entry.operation.method as 'get',
        url: { path, query: request.query },
        // The body was read and parsed already; these headers make prism validate it whatever
        // framing (chunked, no Content-Length) the client used.
        headers: hasBody ? { 'content-type': 'application/json', 'content-length': '1' } : {},
        ...(hasBody ? { body: request.body } : {}),
      },
    })
    return result._tag === 'Left' ? fieldsOf(result.left as Diagnostic[], entry.names) : []
  }

  return {
    fields,
    async validate(operationId: string, request: RequestToValidate): Promise<void> {
      const found = await fields(operationId, request)
      if (found.length > 0) throw new HttpError(400, ErrorCode.invalidRequest, `prism refuses ${found.join(', ')}`)
    },
  }
}

/** The fields prism's diagnostics name, once each, as the sandbox's describer names them. */
function fieldsOf(diagnostics: readonly Diagnostic[], names: Record<string, string>): string[] {
  const found = new Set<string>()
  for (const diagnostic of diagnostics) {
    const [location, ...rest] = (diagnostic.path ?? []).map(String)
    const missing = diagnostic.code === 'required' ? /property '([^']+)'/.exec(diagnostic.message)?.[1] : undefined
    const steps = missing === undefined ? rest : [...rest, missing]
    if (steps.length === 0) found.add(`the ${location ?? 'request'}`)
    else if (location === 'body')
      found.add(
        steps.map((step, index) => (/^\d+$/.test(step) ? `[${step}]` : `${index === 0 ? '' : '.'}${step}`)).join(''),
      )
    else found.add(names[steps[0]!.toLowerCase()] ?? steps[0]!)
  }
  return [...found].sort()
}

/**
 * Prism gives an int64 the bounds ±(2^53-1) and refuses a value past them, though the spec's
 * int64 reaches ±(2^63-1); the sandbox takes the spec's (D37), and checkParameterSyntax has held
 * the value to int64 already. So prism is shown 0 for such a path value, which it judges as the
 * sandbox judges the value (docs/upstream-reports.md).
 */
function withSafeInt64s(entry: CompiledOperation, path: string): string {
  const template = entry.operation.path.split('/')
  const segments = path.split('/')
  for (const rule of entry.syntax) {
    const at = template.indexOf(`{${rule.name}}`)
    const value = segments[at]
    if (
      rule.in === 'path' &&
      rule.int64 &&
      value !== undefined &&
      /^-?\d+$/.test(value) &&
      !Number.isSafeInteger(Number(value))
    )
      segments[at] = '0'
  }
  return segments.join('/')
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
    const names: Record<string, string> = {}
    for (const parameter of [...(operation.request?.query ?? []), ...(operation.request?.path ?? [])])
      names[parameter.name.toLowerCase()] = parameter.name
    byId.set(operation.iid ?? operation.id, { operation, names, syntax: parameterSyntaxOf(operation) })
  }
  return { operations: byId, validateInput }
}
