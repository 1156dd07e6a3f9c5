import type { ApiKey } from '../../core/auth/key-config.js'
import type { Plan } from '../../core/auth/plans.js'
import type { OpenApiDocument } from '../../core/contract/openapi-document-type.js'

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json'

interface Example {
  /** Each operation spends another key's quota. */
  plan: Plan
  path?: Record<string, string>
  query?: Record<string, string>
  body?: unknown
  /** Kept for the requests after: `{ petId: 'id' }`. */
  keep?: Record<string, string>
  /** Held to collection variables: `{ id: 'petId' }`. */
  echo?: Record<string, string>
  /** Every item of an array body has these: `{ status: 'available' }`. */
  every?: Record<string, string>
}

// The pet created first is read next: no id is assumed to exist.
const EXAMPLES: Record<'createPet' | 'getPet' | 'listPets', Example> = {
  createPet: { plan: 'pro', body: { name: 'Rex', categoryId: 1, status: 'available' }, keep: { petId: 'id' } },
  getPet: { plan: 'business', path: { petId: '{{petId}}' }, echo: { id: 'petId' } },
  listPets: { plan: 'free', query: { limit: '5', status: 'available' }, every: { status: 'available' } },
}

const PREREQUEST = [
  "if (!pm.variables.get('session')) " +
    "pm.collectionVariables.set('session', 'postman-' + pm.variables.replaceIn('{{$guid}}'))",
]

export interface PostmanCollectionInput {
  document: OpenApiDocument
  baseUrl: string
  /** Absent with a keys file: every request sends `{{apiKey}}`. */
  demoKeys: readonly ApiKey[] | undefined
}

/** Builds `/postman.json`, a plan per operation so a run is never banned (D15). */
export function postmanCollection({ document, baseUrl, demoKeys }: PostmanCollectionInput): object {
  const components = (document.components ?? {}) as {
    schemas?: Record<string, unknown>
    headers?: Record<string, unknown>
    responses?: Record<string, unknown>
  }
  const resolve = (value: unknown): unknown => {
    const ref = (value as { $ref?: unknown } | null)?.$ref
    if (typeof ref !== 'string') return value
    const [, , kind, name] = ref.split('/')
    return resolve((components as Record<string, Record<string, unknown>>)[kind!]?.[name!])
  }
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation: operation as Operation,
    })),
  )
  const keyOf = (plan: Plan) => demoKeys?.find((key) => key.plan === plan)?.key
  const items = (Object.keys(EXAMPLES) as Array<keyof typeof EXAMPLES>).map((operationId) => {
    const found = operations.find((entry) => entry.operation.operationId === operationId)
    if (found === undefined) throw new Error(`the contract has no operation ${operationId}`)
    const example = EXAMPLES[operationId]
    const [status, response] = Object.entries(found.operation.responses).find(([code]) => code.startsWith('2'))!
    const resolved = resolve(response) as {
      headers?: Record<string, unknown>
      content?: Record<string, { schema?: unknown }>
    }
    const headers = Object.entries(resolved.headers ?? {})
      .filter(([, header]) => (resolve(header) as { required?: boolean }).required === true)
      .map(([name]) => name)
    const schema = jsonSchema(resolved.content?.['application/json']?.schema, resolve)
    const segments = found.path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => segment.replace(/^\{(.+)\}$/, (_, name: string) => example.path?.[name] ?? `:${name}`))
    const query = Object.entries(example.query ?? {}).map(([key, value]) => ({ key, value }))
    const search = query.length === 0 ? '' : `?${query.map(({ key, value }) => `${key}=${value}`).join('&')}`
    const raw = `{{baseUrl}}/${segments.join('/')}${search}`
    const key = keyOf(example.plan)
    return {
      name: `${found.operation.summary ?? operationId} (${operationId})`,
      request: {
        method: found.method,
        description: `${found.method} ${found.path}${key === undefined ? '' : `, with the ${example.plan} demo key`}.`,
        ...(key === undefined ? {} : { auth: bearer(key) }),
        header: [
          { key: 'X-Sandbox-Session', value: '{{session}}' },
          ...(example.body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }]),
        ],
        url: { raw, host: ['{{baseUrl}}'], path: segments, ...(query.length === 0 ? {} : { query }) },
        ...(example.body === undefined
          ? {}
          : {
              body: { mode: 'raw', raw: JSON.stringify(example.body, null, 2), options: { raw: { language: 'json' } } },
            }),
      },
      event: [
        {
          listen: 'test',
          script: { type: 'text/javascript', exec: testScript(Number(status), headers, schema, example) },
        },
      ],
    }
  })
  return {
    info: {
      name: `${document.info.title} ${document.info.version} (petstore-sandbox)`,
      description:
        'Every operation of the Animal Store API as petstore-sandbox serves it, each with a test. ' +
        'Set `baseUrl` (the API base, ending in /v1) and `session` ' +
        '(sent as X-Sandbox-Session; a run without one gets a fresh session of its own).',
      schema: SCHEMA,
    },
    auth: bearer('{{apiKey}}'),
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: PREREQUEST } }],
    variable: [
      { key: 'baseUrl', value: baseUrl, type: 'string', description: 'The API base, ending in /v1.' },
      {
        key: 'session',
        value: '',
        type: 'string',
        description: 'The session (X-Sandbox-Session) the requests are in; empty: a fresh one per run.',
      },
      {
        key: 'apiKey',
        value: '',
        type: 'string',
        description: 'The key of a request with no demo key of its own (a sandbox started with a keys file).',
      },
      { key: 'petId', value: '', type: 'string', description: 'The id of the pet the collection created.' },
    ],
    item: items,
  }
}

interface Operation {
  operationId: string
  summary?: string
  responses: Record<string, unknown>
}

function bearer(token: string) {
  return { type: 'bearer', bearer: [{ key: 'token', value: token, type: 'string' }] }
}

/** Inlines a schema's references, less what Postman's check does not know. */
function jsonSchema(schema: unknown, resolve: (value: unknown) => unknown): unknown {
  const resolved = resolve(schema)
  if (Array.isArray(resolved)) return resolved.map((entry) => jsonSchema(entry, resolve))
  if (resolved === null || typeof resolved !== 'object') return resolved
  return Object.fromEntries(
    Object.entries(resolved)
      .filter(([word]) => word !== 'format' && word !== 'description')
      .map(([word, value]) => [
        word,
        word === 'properties'
          ? Object.fromEntries(
              Object.entries(value as object).map(([name, entry]) => [name, jsonSchema(entry, resolve)]),
            )
          : jsonSchema(value, resolve),
      ]),
  )
}

function testScript(status: number, headers: string[], schema: unknown, { keep, echo, every }: Example): string[] {
  const json = JSON.stringify
  return [
    `pm.test('answers ${status}', () => pm.response.to.have.status(${status}))`,
    `pm.test('carries ${headers.join(', ')}', () => ` +
      `{ for (const name of ${json(headers)}) pm.response.to.have.header(name) })`,
    `pm.test('has a body of the contract', () => pm.response.to.have.jsonSchema(${json(schema)}))`,
    ...Object.entries(echo ?? {}).map(
      ([field, variable]) =>
        `pm.test('has the ${field} asked for', () => pm.expect(String(pm.response.json()[${json(field)}]))` +
        `.to.eql(pm.collectionVariables.get(${json(variable)})))`,
    ),
    ...Object.entries(every ?? {}).map(
      ([field, value]) =>
        `pm.test('lists only ${field} ${value}', () => ` +
        `{ for (const item of pm.response.json()) pm.expect(String(item[${json(field)}])).to.eql(${json(value)}) })`,
    ),
    ...Object.entries(keep ?? {}).map(
      ([variable, field]) =>
        `pm.collectionVariables.set(${json(variable)}, String(pm.response.json()[${json(field)}]))`,
    ),
  ]
}
