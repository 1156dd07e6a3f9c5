import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { expect, it } from 'vitest'

const yaml = readFileSync(new URL('../../fixtures/admin-openapi.yaml', import.meta.url), 'utf8')

it('puts every admin operation behind the admin bearer token', () => {
  const document = parse(yaml)
  const operations = Object.values(document.paths as Record<string, Record<string, { operationId?: string; security?: unknown[] }>>)
    .flatMap((item) => Object.values(item))
    .filter((operation) => typeof operation.operationId === 'string')
  expect(operations.length).toBeGreaterThan(5)
  // `security: []` would open an operation to anyone: each must name at least one requirement.
  for (const operation of operations) expect((operation.security ?? document.security ?? []).length, operation.operationId).toBeGreaterThan(0)
})
