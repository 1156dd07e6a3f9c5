import { Ajv, type ValidateFunction } from 'ajv'
import { createLru } from '../cache/create-lru.js'
import { describeInputErrors, inputMessage, type InputIssue } from '../contract/describe-input-errors.js'
import type { OpenApiDocument } from '../contract/openapi-document-type.js'
import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { addQueryValue } from '../http/query-of.js'
import { checkParameterSyntax, type ParameterSyntax, parameterSyntax } from './check-parameter-syntax.js'

// Ajv, not prism (BENCHMARKS.md, "First refusal"); a property test holds it to prism.

export interface RequestToValidate {
  /** Is below the prefix, percent-decoded. */
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
  template: string
  pathParameters: { name: string; index: number }[]
  segmentCount: number
  /** Holds D3's syntax rules, checked first. */
  syntax: ParameterSyntax[]
  query: ValidateFunction | undefined
  path: ValidateFunction | undefined
  body: ValidateFunction | undefined
  names: Record<'query' | 'path', Record<string, string>>
}

// Bounds the bodiless requests remembered valid, least recent out first.
const VALID_KEPT = 1024

// Shared between sandboxes: a suite with a sandbox per test compiles once.
const compiledByDocument = new WeakMap<OpenApiDocument, Map<string, CompiledOperation>>()

/** Creates a request validator (D3, D5, D6). */
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

  /** Lists the fields at fault; D3's rules throw first. */
  const issues = (operationId: string, request: RequestToValidate): InputIssue[] => {
    const entry = entryOf(operationId)
    checkParameterSyntax(entry.syntax, entry.template, request.path, request.query)
    return diagnose(entry, request)
  }

  // BENCHMARKS.md, "Closer to the wire".
  const valid = createLru<unknown>(() => VALID_KEPT)
  const validate = (operationId: string, request: RequestToValidate): void => {
    const found = issues(operationId, request)
    if (found.length > 0) throw new HttpError(400, ErrorCode.invalidRequest, inputMessage(found))
  }

  return {
    /** Throws 400 naming every field at fault. */
    validate,
    /** Returns what `read` made of a bodiless `target` found valid before; else validates it, keeping `read`'s. */
    readValid<T>(
      operationId: string,
      target: string,
      request: () => RequestToValidate,
      read: (valid: RequestToValidate) => T,
    ): T {
      const key = `${operationId} ${target}`
      const kept = valid.peek(key)
      if (kept !== undefined) return kept as T
      const asked = request()
      validate(operationId, asked)
      const made = read(asked)
      valid.put(key, made)
      return made
    },
    issues,
  }
}

/** Lists the schema violations: path, then query, then body. */
function diagnose(entry: CompiledOperation, request: RequestToValidate): InputIssue[] {
  const pathParams: Record<string, string> = {}
  const actual = request.path.split('/')
  for (const { name, index } of entry.pathParameters) {
    // As prism does: `/pets/1%2F2` has the petId `1/2`.
    const value = index === entry.segmentCount - 1 ? actual.slice(index).join('/') : actual[index]
    if (value !== undefined) pathParams[name] = value
  }
  // Copies, as Ajv coerces values in place.
  return [
    ...check(entry.path, { ...pathParams }, 'the path'),
    ...check(entry.query, queryByDeclaredName(entry, request.query), 'the query'),
    ...(entry.body !== undefined && request.body !== undefined ? check(entry.body, request.body, 'the body') : []),
  ]
}

function check(validate: ValidateFunction | undefined, value: unknown, root: string): InputIssue[] {
  if (validate === undefined || validate(value)) return []
  return describeInputErrors(validate.errors ?? [], '', root)
}

/** Copies the query with names matched without case (`?Limit=0`), as prism does. */
function queryByDeclaredName(
  entry: CompiledOperation,
  query: Record<string, string | string[]>,
): Record<string, string | string[]> {
  const byName: Record<string, string | string[]> = {}
  for (const [key, value] of Object.entries(query)) {
    const name = Object.hasOwn(entry.names.query, key)
      ? key
      : (Object.keys(entry.names.query).find((declared) => declared.toLowerCase() === key.toLowerCase()) ?? key)
    addQueryValue(byName, name, value)
  }
  return byName
}

// No meta-schema (most of the first compile): the tests check the schemas.
const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  verbose: true,
  validateFormats: false,
  validateSchema: false,
} as const

function compile(document: OpenApiDocument): Map<string, CompiledOperation> {
  // Query and path strings only, as prism does: a body's "1" is no integer.
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
      const names: CompiledOperation['names'] = { query: {}, path: {} }
      const syntax: ParameterSyntax[] = []
      const schemas: Record<
        'query' | 'path',
        { type: 'object'; properties: Record<string, object>; required: string[] }
      > = {
        query: { type: 'object', properties: {}, required: [] },
        path: { type: 'object', properties: {}, required: [] },
      }
      for (const parameter of parameters) {
        if (parameter.in !== 'query' && parameter.in !== 'path') continue
        const schema = (parameter.schema ?? {}) as { type?: string; format?: string; enum?: unknown }
        schemas[parameter.in].properties[parameter.name] = schema
        if (parameter.required === true) schemas[parameter.in].required.push(parameter.name)
        names[parameter.in][parameter.name] = parameter.name
        syntax.push(parameterSyntax(parameter.name, parameter.in, schema))
      }
      const body = (
        inline(document, operation.requestBody) as { content?: Record<string, { schema?: object }> } | undefined
      )?.content?.['application/json']?.schema
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
      })
    }
  }
  return byId
}

/** Copies `value` with every local `$ref` inlined (the contract has no cycles). */
function inline(document: OpenApiDocument, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(document, item))
  if (typeof value !== 'object' || value === null) return value
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, step) =>
          (node as Record<string, unknown> | undefined)?.[step.replaceAll('~1', '/').replaceAll('~0', '~')],
        document,
      )
    if (target === undefined) throw new Error(`unresolved $ref ${ref} in the contract`)
    return inline(document, target)
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(document, item)]))
}

export type RequestValidator = ReturnType<typeof createRequestValidator>
