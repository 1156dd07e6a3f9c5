// Every response a consumer suite sees is held to the contracts the package ships (openapi.yaml for
// /v1, admin-openapi.yaml for /__sandbox), so a suite fails on any answer a real client could not rely on.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Ajv } from 'ajv'
import { parse } from 'yaml'

// The package's "exports" do not list fixtures/, so the files are found beside its package.json.
const packageUrl = pathToFileURL(createRequire(import.meta.url).resolve('petstore-sandbox/package.json'))

// Formats such as int64 are descriptive in the contract, and the documents carry OpenAPI-only keywords.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true })

const contracts = [
  { id: 'api', prefix: '/v1', file: 'fixtures/openapi.yaml' },
  { id: 'admin', prefix: '/__sandbox', file: 'fixtures/admin-openapi.yaml' },
].map(({ id, prefix, file }) => {
  const document = parse(readFileSync(new URL(file, packageUrl), 'utf8'))
  ajv.addSchema(document, id)
  const paths = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  return { id, prefix, document, paths }
})

/** Every violation found so far, for suites whose code under test swallows a thrown error. */
export const contractViolations = []

/**
 * What is wrong with one response (empty when it conforms).
 * @param {string} method
 * @param {string} url
 * @param {{ status: number, headers: { get(name: string): string | null }, body: unknown }} response
 * @returns {string[]}
 */
export function checkResponse(method, url, { status, headers, body }) {
  const where = `${method} ${url} -> ${status}`
  const pathname = new URL(url).pathname
  const contract = contracts.find(({ prefix }) => pathname.startsWith(`${prefix}/`))
  const path = contract?.paths.find(({ pattern }) => pattern.test(pathname.slice(contract.prefix.length)))
  const operationPointer = path && `/paths/${escapePointer(path.template)}/${method.toLowerCase()}`
  if (
    contract === undefined ||
    operationPointer === undefined ||
    at(contract.document, operationPointer) === undefined
  ) {
    return [`${where}: no operation of the contract`]
  }
  const responses = at(contract.document, `${operationPointer}/responses`)
  const responsePointer = resolve(
    contract.document,
    `${operationPointer}/responses/${String(status) in responses ? status : 'default'}`,
  )
  const response = at(contract.document, responsePointer)
  const violations = []
  for (const [name, reference] of Object.entries(response.headers ?? {})) {
    const header = at(contract.document, resolve(contract.document, null, reference))
    const value = headers.get(name)
    if (value === null) {
      if (header.required) violations.push(`${where}: header ${name} is missing`)
      continue
    }
    const typed = header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value
    if (!ajv.validate(header.schema, typed)) violations.push(`${where}: header ${name}: ${value} ${ajv.errorsText()}`)
  }
  if (response.content?.['application/json'] !== undefined) {
    const contentType = headers.get('content-type') ?? ''
    if (!contentType.startsWith('application/json'))
      violations.push(`${where}: content-type is ${contentType || 'missing'}`)
    const validate = ajv.getSchema(
      `${contract.id}#${responsePointer}/content/${escapePointer('application/json')}/schema`,
    )
    if (body === undefined) violations.push(`${where}: no body`)
    else if (!validate(body))
      violations.push(`${where}: body ${ajv.errorsText(validate.errors)}: ${JSON.stringify(body).slice(0, 200)}`)
  }
  if (status >= 400 && body !== undefined && body.status !== status)
    violations.push(`${where}: Error.status ${body.status} is not the HTTP status`)
  return violations
}

/**
 * A fetch that checks every response it returns against the contract, recording what is wrong in
 * `contractViolations` and throwing, so a test fails where the bad response arrived.
 * @param {typeof fetch} fetchImpl
 * @returns {typeof fetch}
 */
export function contractCheckedFetch(fetchImpl) {
  return async (input, init) => {
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET').toUpperCase()
    const url = input instanceof Request ? input.url : String(input)
    const response = await fetchImpl(input, init)
    // The body is read once and handed on in a new Response: happy-dom's clone() of a fetched response empties both copies.
    const text = await response.text()
    let body = text === '' ? undefined : text
    try {
      body = body === undefined ? undefined : JSON.parse(body)
    } catch {}
    const violations = checkResponse(method, url, { status: response.status, headers: response.headers, body })
    if (violations.length > 0) {
      contractViolations.push(...violations)
      throw new Error(`response breaks the contract:\n${violations.join('\n')}`)
    }
    return new Response(text === '' ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

/** The pointer of the object at `pointer`, or of `node`, once its `$ref`s are followed. */
function resolve(document, pointer, node = at(document, pointer)) {
  return node?.$ref === undefined ? pointer : resolve(document, node.$ref.slice(1))
}

function at(document, pointer) {
  return pointer
    .split('/')
    .slice(1)
    .reduce((parent, key) => parent?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document)
}

function escapePointer(key) {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}
