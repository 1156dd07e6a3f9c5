import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { expect, it } from 'vitest'

const yaml = readFileSync(new URL('../../fixtures/admin-openapi.yaml', import.meta.url), 'utf8')

// The probes are open on purpose: load balancers and test runners poll them without a token.
const PROBES = ['/healthz', '/readyz']

it('puts every admin operation behind the admin bearer token, and only the probes outside it', () => {
  const document = parse(yaml)
  const paths = document.paths as Record<string, Record<string, { operationId?: string; security?: unknown[] }>>
  for (const probe of PROBES) expect(paths[probe]?.get?.security, probe).toEqual([])
  const operations = Object.entries(paths)
    .filter(([path]) => !PROBES.includes(path))
    .flatMap(([, item]) => Object.values(item))
    .filter((operation) => typeof operation.operationId === 'string')
  expect(operations.length).toBeGreaterThan(5)
  // `security: []` would open an operation to anyone: each must name at least one requirement.
  for (const operation of operations) expect((operation.security ?? document.security ?? []).length, operation.operationId).toBeGreaterThan(0)
})
