import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { OpenApiDocument } from '../contract/openapi-document-type.js'
import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { addQueryValue } from '../http/query-of.js'
import { checkParameterSyntax, type ParameterSyntax, parameterSyntax } from './check-parameter-syntax.js'
import { describeDiagnostics, type Diagnostic, type ParameterBounds } from './describe-diagnostics.js'

// The contract's parameter and body schemas compiled with Ajv, the validator prism itself uses,
// with its errors phrased as prism's diagnostics, so the 400 messages read as prism's would: a
// property test holds the two to the same verdicts and messages (test/unit/create-request-validator.test.ts).
// Prism is not on the request path: it does not run in a browser, and loading it made the first
// refusal of every process slow (BENCHMARKS.md, "First refusal").

/** A request as the validator sees it. */
export interface RequestToValidate {
  /** The path below the `/v1` prefix, percent-decoded. */
  path: string
  query: Record<string, string | string[]>
  body?: unknown
}

interface Parameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required?: boolean
  schema?: object
}

interface CompiledOperation {
  /** `/pets/{petId}`, the operation's path template. */
  template: string
  /** The template's parameters and their segment positions, to read them from a request path. */
  pathParameters: { name: string; index: number }[]
  segmentCount: number
  /** D3's syntax rules, checked before the schemas. */
  syntax: ParameterSyntax[]
  query: ValidateFunction | undefined
  path: ValidateFunction | undefined
  body: ValidateFunction | undefined
  names: Record<'query' | 'path', Record<string, string>>
  bounds: ParameterBounds
}

// Compiled schemas depend on the document alone, so sandboxes share them: a suite that creates a
// sandbox per test compiles once.
const compiledByDocument = new WeakMap<OpenApiDocument, Map<string, CompiledOperation>>()

/**
 * Validates requests against the OpenAPI document and throws a 400 `invalid_request` naming every
 * offending field (D3, D5, D6).
 *
 * @example
 * const validator = createRequestValidator(openapiDocument)
 * await validator.validate('listPets', { path: '/pets', query: { limit: '0' } })   // throws 400 "limit must be between 1 and 100"
 */
export function createRequestValidator(document: OpenApiDocument) {
  const load = (): Map<string, CompiledOperation> => {
    let compiled = compiledByDocument.get(document)
    if (compiled === undefined) {
      compiled = compile(document)
      compiledByDocument.set(document, compiled)
    }
    return compiled
  }
  const entryOf = (operationId: string): CompiledOperation => {
    const entry = load().get(operationId)
    if (entry === undefined) throw new Error(`operation ${operationId} is not in the document`)
    return entry
  }

  return {
    validate(operationId: string, request: RequestToValidate): void {
      const entry = entryOf(operationId)
      checkParameterSyntax(entry.syntax, entry.template, request.path, request.query)
      const diagnostics = diagnose(entry, request)
      if (diagnostics.length > 0) {
        throw new HttpError(400, ErrorCode.invalidRequest, describeDiagnostics(diagnostics, entry.bounds))
      }
    },
  }
}

/** Every schema violation of the request, as prism would list them. */
function diagnose(entry: CompiledOperation, request: RequestToValidate): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  const pathParams: Record<string, string> = {}
  const actual = request.path.split('/')
  for (const { name, index } of entry.pathParameters) {
    // A last parameter takes the rest of the path, as prism reads it: `/pets/1%2F2` decodes to
    // `/pets/1/2`, whose petId `1/2` is no integer.
    const value = index === entry.segmentCount - 1 ? actual.slice(index).join('/') : actual[index]
    if (value !== undefined) pathParams[name] = value
  }
  // Copies: Ajv coerces query and path values to their declared types in place.
  check(entry.path, { ...pathParams }, 'path', entry, diagnostics)
  check(entry.query, queryByDeclaredName(entry, request.query), 'query', entry, diagnostics)
  if (entry.body !== undefined && request.body !== undefined) check(entry.body, request.body, 'body', entry, diagnostics)
  return diagnostics
}

/**
 * A copy of the query with names matched to the declared parameters case-insensitively, as prism
 * matches them (`?Limit=0` is checked as `limit`); values under one name are gathered.
 */
function queryByDeclaredName(entry: CompiledOperation, query: Record<string, string | string[]>): Record<string, string | string[]> {
  const byName: Record<string, string | string[]> = {}
  for (const [key, value] of Object.entries(query)) {
    const name = Object.hasOwn(entry.names.query, key)
      ? key
      : (Object.keys(entry.names.query).find((declared) => declared.toLowerCase() === key.toLowerCase()) ?? key)
    addQueryValue(byName, name, value)
  }
  return byName
}

function check(validate: ValidateFunction | undefined, value: unknown, location: 'query' | 'path' | 'body', entry: CompiledOperation, into: Diagnostic[]) {
  if (validate === undefined || validate(value)) return
  for (const error of telling(validate.errors ?? [])) into.push(toDiagnostic(error, location, entry))
}

/**
 * The errors worth naming, for the admin document's combinators (the API's has none). An `if`
 * error only says its `then` failed, which the `then`'s own errors name (an enterprise key needs
 * both limits). A failed `oneOf` (a clock move: `set` or `advanceMs`) is told by the branches that
 * came closest, those with the fewest errors: `{"advanceMs":1e308}` breaks the bound of the
 * advance, not the rules of a `set`.
 */
function telling(errors: readonly ErrorObject[]): ErrorObject[] {
  const branchOf = (error: ErrorObject) => /^(.*?\/oneOf\/\d+)\//.exec(error.schemaPath)?.[1]
  const counts = new Map<string, number>()
  for (const error of errors) {
    const branch = branchOf(error)
    if (branch !== undefined) counts.set(branch, (counts.get(branch) ?? 0) + 1)
  }
  const fewest = Math.min(...counts.values())
  return errors.filter((error) => {
    if (error.keyword === 'if' || (error.keyword === 'oneOf' && counts.size > 0)) return false
    const branch = branchOf(error)
    return branch === undefined || counts.get(branch) === fewest
  })
}

/** An Ajv error as prism words it: `Request query parameter limit must be >= 1`. */
function toDiagnostic(error: ErrorObject, location: 'query' | 'path' | 'body', entry: CompiledOperation): Diagnostic {
  const steps = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))
  // Prism lists an enum's values after Ajv's message; so do we.
  const allowed = error.keyword === 'enum' ? (error.params as { allowedValues?: unknown[] }).allowedValues : undefined
  let message = `${error.message ?? 'is invalid'}${allowed === undefined ? '' : `: ${allowed.join(', ')}`}`
  // An unknown field is named, rather than its object said to have "additional properties".
  const unknown = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined
  if (unknown !== undefined) {
    steps.push(unknown)
    message = 'is not a field here'
  }
  if (location === 'body') {
    return {
      path: ['body', ...steps],
      code: error.keyword,
      message: steps.length > 0 ? `Request body property ${steps.join('.')} ${message}` : `Request body ${message}`,
    }
  }
  const name = entry.names[location][steps[0] ?? ''] ?? steps[0] ?? ''
  return { path: [location, name], code: error.keyword, message: `Request ${location} parameter ${name} ${message}` }
}

// The contract's schemas are trusted (the tests check them), so Ajv need not compile its
// meta-schema to check them first: that alone is most of the cost of the first compile.
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, validateSchema: false } as const

function compile(document: OpenApiDocument): Map<string, CompiledOperation> {
  // Query and path values arrive as strings: coerce them to the declared types, as prism does.
  // Bodies are JSON already and must not be coerced ("1" is no integer).
  const coercing = new Ajv({ ...AJV_OPTIONS, coerceTypes: true })
  const exact = new Ajv(AJV_OPTIONS)
  const byId = new Map<string, CompiledOperation>()
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method)) continue
      const operation = raw as { operationId?: string; parameters?: unknown[]; requestBody?: unknown }
      if (operation.operationId === undefined) continue
      const parameters = [...((item.parameters as unknown[] | undefined) ?? []), ...(operation.parameters ?? [])].map(
        (parameter) => inline(document, parameter) as Parameter,
      )
      const bounds: ParameterBounds = {}
      const names: CompiledOperation['names'] = { query: {}, path: {} }
      const syntax: ParameterSyntax[] = []
      const schemas: Record<'query' | 'path', { type: 'object'; properties: Record<string, object>; required: string[] }> = {
        query: { type: 'object', properties: {}, required: [] },
        path: { type: 'object', properties: {}, required: [] },
      }
      for (const parameter of parameters) {
        if (parameter.in !== 'query' && parameter.in !== 'path') continue
        // The document declares the bounds it enforces (D3): no clamping here.
        const schema = (parameter.schema ?? {}) as { type?: string; minimum?: number; maximum?: number }
        schemas[parameter.in].properties[parameter.name] = schema
        if (parameter.required === true) schemas[parameter.in].required.push(parameter.name)
        names[parameter.in][parameter.name] = parameter.name
        syntax.push(parameterSyntax(parameter.name, parameter.in, schema))
        bounds[parameter.name.toLowerCase()] = {
          name: parameter.name,
          ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
          ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
        }
      }
      const body = (inline(document, operation.requestBody) as { content?: Record<string, { schema?: object }> } | undefined)?.content?.['application/json']
        ?.schema
      const segments = path.split('/')
      byId.set(operation.operationId, {
        template: path,
        pathParameters: segments.flatMap((segment, index) => {
          const name = /^\{(.+)\}$/.exec(segment)?.[1]
          return name === undefined ? [] : [{ name, index }]
        }),
        segmentCount: segments.length,
        syntax,
        query: Object.keys(schemas.query.properties).length > 0 ? coercing.compile(schemas.query) : undefined,
        path: Object.keys(schemas.path.properties).length > 0 ? coercing.compile(schemas.path) : undefined,
        body: body === undefined ? undefined : exact.compile(body),
        names,
        bounds,
      })
    }
  }
  return byId
}

/** A copy of `value` with every local `$ref` replaced by what it points at (the contract has no cycles). */
function inline(document: OpenApiDocument, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(document, item))
  if (typeof value !== 'object' || value === null) return value
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step.replaceAll('~1', '/').replaceAll('~0', '~')], document)
    if (target === undefined) throw new Error(`unresolved $ref ${ref} in the contract`)
    return inline(document, target)
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(document, item)]))
}

export type RequestValidator = ReturnType<typeof createRequestValidator>
