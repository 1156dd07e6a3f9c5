import { expect, it } from 'vitest'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// The served contract says exactly what is enforced: every bound the document declares is taken
// from GET /openapi.json of the running CLI, and a request just inside it is not refused with 400
// while one just outside it is.
const { call, url } = useCliSandbox(['--pets', '3'])

interface Schema {
  $ref?: string
  type?: string
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  properties?: Record<string, Schema>
}
interface Parameter {
  name: string
  in: string
  schema?: Schema
}
type Document = {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >
  components: { schemas: Record<string, Schema> }
}

interface Probe {
  what: string
  request: { path: string; init?: RequestInit }
  refused: boolean
}

/** Each declared bound as two values: the bound itself (inside) and one step past it (outside). */
function boundsOf(schema: Schema): Array<{ bound: string; inside: unknown; outside: unknown }> {
  const found: Array<{ bound: string; inside: unknown; outside: unknown }> = []
  if (schema.type === 'integer') {
    if (schema.minimum !== undefined)
      found.push({ bound: `minimum ${schema.minimum}`, inside: schema.minimum, outside: schema.minimum - 1 })
    if (schema.maximum !== undefined)
      found.push({ bound: `maximum ${schema.maximum}`, inside: schema.maximum, outside: schema.maximum + 1 })
    // An int64 with no bounds of its own is bounded by int64 itself, which only digits can write (D37).
    if (schema.format === 'int64' && schema.minimum === undefined)
      found.push({ bound: 'int64 minimum', inside: String(-(2n ** 63n)), outside: String(-(2n ** 63n) - 1n) })
    if (schema.format === 'int64' && schema.maximum === undefined)
      found.push({ bound: 'int64 maximum', inside: String(2n ** 63n - 1n), outside: String(2n ** 63n) })
  }
  if (schema.type === 'string') {
    if (schema.minLength !== undefined && schema.minLength > 0)
      found.push({
        bound: `minLength ${schema.minLength}`,
        inside: 'n'.repeat(schema.minLength),
        outside: 'n'.repeat(schema.minLength - 1),
      })
    if (schema.maxLength !== undefined)
      found.push({
        bound: `maxLength ${schema.maxLength}`,
        inside: 'n'.repeat(schema.maxLength),
        outside: 'n'.repeat(schema.maxLength + 1),
      })
  }
  return found
}

function resolve(document: Document, schema: Schema): Schema {
  return schema.$ref === undefined
    ? schema
    : resolve(document, document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!)
}

/** A valid request of the operation, with one parameter or body property replaced. */
function probesOf(document: Document): Probe[] {
  const probes: Probe[] = []
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const path = (params: Record<string, unknown>) =>
        template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? 1))
      for (const parameter of operation.parameters ?? []) {
        for (const { bound, inside, outside } of boundsOf(resolve(document, parameter.schema ?? {}))) {
          for (const [value, refused] of [
            [inside, false],
            [outside, true],
          ] as const) {
            const target =
              parameter.in === 'path'
                ? path({ [parameter.name]: value })
                : `${path({})}?${parameter.name}=${String(value)}`
            probes.push({
              what: `${operation.operationId} ${parameter.name} ${bound}: ${String(value).slice(0, 24)}`,
              request: { path: target },
              refused,
            })
          }
        }
      }
      const body = operation.requestBody?.content['application/json']?.schema
      if (body === undefined) continue
      for (const [name, property] of Object.entries(resolve(document, body).properties ?? {})) {
        for (const { bound, inside, outside } of boundsOf(resolve(document, property))) {
          for (const [value, refused] of [
            [inside, false],
            [outside, true],
          ] as const) {
            const json = JSON.stringify({ name: 'Rex', categoryId: 1, [name]: value })
            probes.push({
              what: `${operation.operationId} ${name} ${bound}: ${String(value).slice(0, 24)}`,
              request: {
                path: path({}),
                init: { method: method.toUpperCase(), headers: { 'content-type': 'application/json' }, body: json },
              },
              refused,
            })
          }
        }
      }
    }
  }
  return probes
}

it('answers each bound the served document declares: 400 just outside it, never 400 just inside', async () => {
  const served = await fetch(`${url().replace(/\/v1$/, '')}/openapi.json`)
  expect(served.status).toBe(200)
  const document = (await served.json()) as Document
  const probes = probesOf(document)
  // limit, petId and categoryId at both ends, name at both lengths: each inside and outside.
  expect(probes.length).toBeGreaterThanOrEqual(16)
  for (const probe of probes) {
    // A bound JavaScript cannot hold exactly could not be probed one step past it.
    const number = /(?:minimum|maximum) (-?\d+)/.exec(probe.what)?.[1]
    if (number !== undefined) expect(Number.isSafeInteger(Number(number)), probe.what).toBe(true)
    const response = await call(probe.request.path, probe.request.init)
    if (probe.refused) expect(response.status, probe.what).toBe(400)
    else expect(response.status, probe.what).not.toBe(400)
  }
})

it('marks every constraint the sandbox adds, each description citing a decision, as "sandbox"', async () => {
  const text = await (await fetch(`${url().replace(/\/v1$/, '')}/openapi.json`)).text()
  const descriptions: string[] = []
  JSON.parse(text, (key, value) => {
    if (key === 'description' && typeof value === 'string') descriptions.push(value)
    return value
  })
  const citing = descriptions.filter((description) => /\bD\d+\b/.test(description))
  expect(citing.length).toBeGreaterThanOrEqual(15)
  for (const description of citing) expect(description, description).toMatch(/\bsandbox\b/)
})
