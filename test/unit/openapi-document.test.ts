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
