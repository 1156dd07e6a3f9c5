import { readFileSync } from 'node:fs'
import { validate } from '@readme/openapi-parser'
import { parse } from 'yaml'
import { expect, it } from 'vitest'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'

const yaml = readFileSync(new URL('../../fixtures/openapi.yaml', import.meta.url), 'utf8')

it.each(['openapi.yaml', 'admin-openapi.yaml'])('finds fixtures/%s a valid OpenAPI document', async (file) => {
  const result = await validate(parse(readFileSync(new URL(`../../fixtures/${file}`, import.meta.url), 'utf8')))
  expect(result.valid ? [] : result.errors).toEqual([])
  expect(result.valid).toBe(true)
})

it('declares the three operations with bearer security, and getPet deprecated', () => {
  const document = parse(yaml)
  expect(document.servers.every((server: { url: string }) => server.url.endsWith('/v1'))).toBe(true)
  expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  const operations = [document.paths['/pets'].get, document.paths['/pets'].post, document.paths['/pets/{petId}'].get]
  expect(operations.map((operation) => operation.operationId)).toEqual(['listPets', 'createPet', 'getPet'])
  for (const operation of operations) {
    expect(operation.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(operation.responses)).toContain('429')
    expect(Object.keys(operation.responses)).toContain('401')
  }
  expect(document.paths['/pets/{petId}'].get.deprecated).toBe(true)
})

it('is what the runtime carries: src/core/contract/openapi-document.ts matches the YAML', () => {
  expect(openapiDocument).toEqual(parse(yaml))
})

// What the sandbox adds to the spec's own terms (fixtures/spec-openapi.yaml), field by field.
const CONSTRAINTS = [
  'type',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'default',
  'additionalProperties',
] as const
type Node = Partial<Record<(typeof CONSTRAINTS)[number] | 'description' | '$ref', unknown>> & {
  properties?: Record<string, Node>
  items?: Node
}

/** Each constraint of `node` the spec's `spec` does not have, where the node does not say it is the sandbox's. */
function unlabelled(node: Node | undefined, spec: Node | undefined, where: string, labelled = false): string[] {
  if (node === undefined) return []
  const says = labelled || /\bsandbox\b/.test(String(node.description ?? ''))
  const found = says
    ? []
    : CONSTRAINTS.filter(
        (name) => node[name] !== undefined && JSON.stringify(node[name]) !== JSON.stringify(spec?.[name]),
      ).map((name) => `${where}.${name}`)
  for (const [name, property] of Object.entries(node.properties ?? {}))
    found.push(...unlabelled(property, spec?.properties?.[name], `${where}.${name}`))
  if (node.items !== undefined) found.push(...unlabelled(node.items, spec?.items, `${where}[]`))
  return found
}

it('labels "sandbox" every constraint it adds to the spec, in the schemas, parameters and headers of fixtures/openapi.yaml', () => {
  const sandbox = parse(yaml)
  const spec = parse(readFileSync(new URL('../../fixtures/spec-openapi.yaml', import.meta.url), 'utf8'))
  const found: string[] = []
  for (const [name, schema] of Object.entries(sandbox.components.schemas as Record<string, Node>))
    found.push(...unlabelled(schema, spec.components.schemas[name], name))
  for (const [name, header] of Object.entries(sandbox.components.headers as Record<string, Node & { schema: Node }>)) {
    found.push(
      ...unlabelled(
        header.schema,
        spec.components.headers[name]?.schema,
        `header ${name}`,
        /\bsandbox\b/.test(String(header.description ?? '')),
      ),
    )
  }
  for (const [path, item] of Object.entries(
    sandbox.paths as Record<string, Record<string, { parameters?: Array<Node & { name: string; schema: Node }> }>>,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      for (const parameter of operation.parameters ?? []) {
        const specParameter = spec.paths[path]?.[method]?.parameters?.find(
          (candidate: { name: string }) => candidate.name === parameter.name,
        )
        found.push(
          ...unlabelled(
            parameter.schema,
            specParameter?.schema,
            `${method} ${path} ${parameter.name}`,
            /\bsandbox\b/.test(String(parameter.description ?? '')),
          ),
        )
      }
    }
  }
  expect(found).toEqual([])
})
