import type { OpenApiDocument } from '../contract/openapi-document-type.js'

/** What the validator is given: the path below the prefix, the query, and the parsed body if any. */
export interface FastCheckInput {
  path: string
  query: Record<string, string | string[]>
  body?: unknown
}

/** True only when the request is certainly valid; false means "ask prism", never "invalid". */
export type FastCheck = (request: FastCheckInput) => boolean

type Accepts = (value: unknown) => boolean
type Schema = Record<string, unknown>

// Keywords that never change whether a value is valid.
const ANNOTATIONS = new Set(['description', 'default', 'example', 'examples', 'title', '$schema'])
const INT32 = 2 ** 31
const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/

/**
 * Compiles, for one operation of the document, a check that accepts only requests prism's
 * `validateInput` certainly accepts too: declared parameters with plain values, and bodies of the
 * few JSON Schema keywords the contract uses (type, format int32/int64, minimum, maximum, enum,
 * minLength, maxLength, pattern, required, properties). Anything else (an unknown or repeated
 * query parameter, a value outside its schema, a keyword this check does not know) answers false,
 * and prism validates the request and writes the 400 message as before. So valid requests skip
 * prism's per-request cost (about 40 µs, most of the pipeline), and invalid ones get the same
 * answer as ever. Returns undefined when the operation uses something outside this subset at all.
 *
 * @example
 * const check = compileFastCheck(openapiDocument, '/pets', 'get')
 * check?.({ path: '/pets', query: { limit: '20' } }) // true: no need to run prism
 * check?.({ path: '/pets', query: { limit: '0' } })  // false: prism finds and words the error
 */
export function compileFastCheck(document: OpenApiDocument, path: string, method: string): FastCheck | undefined {
  const resolve = (node: unknown): unknown => {
    let current = node
    for (let depth = 0; depth < 32 && isObject(current) && typeof current.$ref === 'string'; depth++) {
      const ref = current.$ref
      if (!ref.startsWith('#/') || Object.keys(current).some((key) => key !== '$ref' && !ANNOTATIONS.has(key))) return undefined
      current = ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((parent, key) => (isObject(parent) ? parent[key] : undefined), document)
    }
    return isObject(current) && current.$ref === undefined ? current : undefined
  }

  const pathItem = resolve(document.paths[path]) as Schema | undefined
  const operation = pathItem === undefined ? undefined : (resolve(pathItem[method]) as Schema | undefined)
  if (pathItem === undefined || operation === undefined) return undefined

  const parameters = new Map<string, { in: string; required: boolean; accepts: Accepts }>()
  for (const raw of [...asArray(pathItem.parameters), ...asArray(operation.parameters)]) {
    const parameter = resolve(raw) as Schema | undefined
    if (parameter === undefined || typeof parameter.name !== 'string') return undefined
    // Header and cookie parameters, styles and deprecation warnings are left to prism.
    if (parameter.in !== 'query' && parameter.in !== 'path') return undefined
    if (parameter.deprecated === true || parameter.style !== undefined || parameter.explode !== undefined || parameter.content !== undefined) return undefined
    const accepts = compileSchema(parameter.schema, resolve, true)
    if (accepts === undefined) return undefined
    parameters.set(`${parameter.in}:${parameter.name}`, { in: parameter.in, required: parameter.required === true, accepts })
  }

  let body: { required: boolean; accepts: Accepts } | undefined
  if (operation.requestBody !== undefined) {
    const requestBody = resolve(operation.requestBody) as Schema | undefined
    const content = isObject(requestBody?.content) ? requestBody.content : undefined
    const json = content === undefined ? undefined : resolve(content['application/json'])
    const accepts = isObject(json) ? compileSchema(json.schema, resolve, false) : undefined
    if (accepts === undefined) return undefined
    body = { required: requestBody?.required === true, accepts }
  }

  const template = path.split('/')
  const queryNames = [...parameters].filter(([, p]) => p.in === 'query')
  const requiredQuery = queryNames.filter(([, p]) => p.required).map(([key]) => key.slice('query:'.length))

  return (request) => {
    const segments = request.path.split('/')
    if (segments.length !== template.length) return false
    for (let i = 0; i < template.length; i++) {
      const expected = template[i]!
      const actual = segments[i]!
      if (expected.startsWith('{') && expected.endsWith('}')) {
        const parameter = parameters.get(`path:${expected.slice(1, -1)}`)
        if (parameter === undefined || actual === '' || !parameter.accepts(actual)) return false
      } else if (expected !== actual) {
        return false
      }
    }
    for (const name in request.query) {
      const value = request.query[name]
      const parameter = parameters.get(`query:${name}`)
      if (parameter === undefined || typeof value !== 'string' || !parameter.accepts(value)) return false
    }
    for (const name of requiredQuery) if (!Object.hasOwn(request.query, name)) return false
    if (body === undefined) return request.body === undefined
    if (request.body === undefined) return !body.required
    return body.accepts(request.body)
  }
}

/** A check of `schema`, or undefined when it uses a keyword outside the subset. */
function compileSchema(node: unknown, resolve: (node: unknown) => unknown, fromString: boolean): Accepts | undefined {
  const schema = resolve(node) as Schema | undefined
  if (schema === undefined) return undefined
  const known = new Set(['type', 'format', 'minimum', 'maximum', 'enum', 'minLength', 'maxLength', 'pattern', 'required', 'properties'])
  for (const key of Object.keys(schema)) if (!known.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) return undefined
  const { type, format, minimum, maximum, enum: allowed, minLength, maxLength, pattern } = schema
  const numberOrAbsent = (value: unknown) => value === undefined || typeof value === 'number'
  if (!numberOrAbsent(minimum) || !numberOrAbsent(maximum) || !numberOrAbsent(minLength) || !numberOrAbsent(maxLength)) return undefined

  if (type === 'integer') {
    if (format !== undefined && format !== 'int32' && format !== 'int64') return undefined
    if (allowed !== undefined || pattern !== undefined || minLength !== undefined || maxLength !== undefined || schema.properties !== undefined || schema.required !== undefined) return undefined
    const low = Math.max(minimum === undefined ? -Infinity : (minimum as number), format === 'int32' ? -INT32 : -Infinity)
    const high = Math.min(maximum === undefined ? Infinity : (maximum as number), format === 'int32' ? INT32 - 1 : Infinity)
    return (value) => {
      let number: number
      if (fromString) {
        if (typeof value !== 'string' || !DECIMAL_INTEGER.test(value)) return false
        number = Number(value)
      } else {
        if (typeof value !== 'number') return false
        number = value
      }
      return Number.isSafeInteger(number) && number >= low && number <= high
    }
  }

  if (type === 'string') {
    if (format !== undefined || minimum !== undefined || maximum !== undefined || schema.properties !== undefined || schema.required !== undefined) return undefined
    if (allowed !== undefined && (!Array.isArray(allowed) || !allowed.every((v) => typeof v === 'string'))) return undefined
    if (pattern !== undefined && typeof pattern !== 'string') return undefined
    const regex = pattern === undefined ? undefined : new RegExp(pattern, 'u')
    return (value) => {
      if (typeof value !== 'string') return false
      if (allowed !== undefined && !(allowed as string[]).includes(value)) return false
      if (minLength !== undefined || maxLength !== undefined) {
        // JSON Schema counts code points, not UTF-16 units.
        let length = 0
        for (const _ of value) length++
        if (minLength !== undefined && length < (minLength as number)) return false
        if (maxLength !== undefined && length > (maxLength as number)) return false
      }
      return regex === undefined || regex.test(value)
    }
  }

  if (type === 'object' && !fromString) {
    if (format !== undefined || allowed !== undefined || pattern !== undefined || minimum !== undefined || maximum !== undefined || minLength !== undefined || maxLength !== undefined) return undefined
    const required = schema.required ?? []
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) return undefined
    const properties: Array<[string, Accepts]> = []
    for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
      const accepts = compileSchema(property, resolve, false)
      if (accepts === undefined) return undefined
      properties.push([name, accepts])
    }
    return (value) => {
      if (!isObject(value) || Array.isArray(value)) return false
      for (const name of required as string[]) if (!Object.hasOwn(value, name)) return false
      for (const [name, accepts] of properties) if (Object.hasOwn(value, name) && !accepts(value[name])) return false
      return true
    }
  }
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
