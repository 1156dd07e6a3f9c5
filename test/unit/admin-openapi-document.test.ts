import { SESSION_KEYS_SERVED } from '../../src/core/sandbox/create-session-keys.js'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { expect, it } from 'vitest'
import { SESSION_OPERATIONS } from '../../src/core/admin/create-admin-operations.js'
import { SERVED_ELSEWHERE } from '../../src/core/sandbox/create-session-controls.js'
import { createSandbox } from '../../src/index.js'

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
  for (const operation of operations)
    expect((operation.security ?? document.security ?? []).length, operation.operationId).toBeGreaterThan(0)
})

it('names the session parameter on exactly the operations that act on a session (D34), each serving a member of SessionControls', () => {
  const document = parse(yaml)
  const paths = document.paths as Record<
    string,
    Record<string, { operationId?: string; parameters?: Array<{ $ref?: string }> }>
  >
  const withSession = Object.values(paths)
    .flatMap((item) => Object.values(item))
    .filter((operation) =>
      operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/Session'),
    )
    .map((operation) => operation.operationId)
  expect(withSession.sort()).toEqual(Object.keys(SESSION_OPERATIONS).sort())
  // Each member a session's controls offer is served: by these operations, or where SERVED_ELSEWHERE says.
  const sandbox = createSandbox()
  const members = Object.keys(sandbox.session('parity')).filter((name) => !['name', 'fetch', 'keys'].includes(name))
  const served = new Set([...Object.values(SESSION_OPERATIONS), ...Object.keys(SERVED_ELSEWHERE)])
  expect(members.filter((member) => !served.has(member as never))).toEqual([])
  expect([...served].filter((member) => !members.includes(member))).toEqual([])
  // A named session's bound keys (D46): each member served by an operation of the document.
  expect(Object.keys(sandbox.session('parity').keys).sort()).toEqual(Object.keys(SESSION_KEYS_SERVED).sort())
  const operationIds = Object.values(paths).flatMap((item) =>
    Object.values(item).map((operation) => operation.operationId),
  )
  expect(Object.values(SESSION_KEYS_SERVED).filter((id) => !operationIds.includes(id))).toEqual([])
})
