import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'
import {
  OPERATION_IDS,
  OPERATIONS,
  type OperationId,
  type OperationTable,
} from '../../src/core/operations/operation-table.js'

// Checked by `npm run typecheck`: the table has an entry for every operation of the contract, and
// one more operationId without its entry fails (as `deletePet` does below, regenerated for real).
const everyOperationListed: OperationTable = OPERATIONS
// @ts-expect-error: Property 'deletePet' is missing in the operations' table.
const unlistedOperationFails: OperationTable<OperationId | 'deletePet'> = OPERATIONS
void everyOperationListed
void unlistedOperationFails

const root = fileURLToPath(new URL('../..', import.meta.url))

it('lists the operations of the contract, in its order', () => {
  const documented = Object.values(openapiDocument.paths).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).flatMap(({ operationId }) =>
      operationId === undefined ? [] : [operationId],
    ),
  )
  expect(OPERATION_IDS).toEqual(documented)
})

it('fails the typecheck, naming it, for an operation added to a copy of the contract and regenerated', () => {
  const copy = mkdtempSync(join(tmpdir(), 'operation-table-'))
  try {
    for (const part of [
      'src/core',
      'src/index.ts',
      'fixtures',
      'scripts/generate-contract.mjs',
      'tsconfig.json',
      'package.json',
    ]) {
      cpSync(join(root, part), join(copy, part), { recursive: true })
    }
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir')
    const contract = join(copy, 'fixtures/openapi.yaml')
    const document = parse(readFileSync(contract, 'utf8'))
    const item = document.paths['/pets/{petId}']
    item.delete = {
      operationId: 'deletePet',
      parameters: item.get.parameters,
      responses: { 204: { description: 'Deleted.' } },
    }
    writeFileSync(contract, stringify(document))

    const generated = spawnSync(process.execPath, ['scripts/generate-contract.mjs'], { cwd: copy, encoding: 'utf8' })
    expect(generated.status, generated.stderr).toBe(0)
    expect(readFileSync(join(copy, 'src/core/contract/openapi-types.ts'), 'utf8')).toContain('deletePet: {')

    const checked = spawnSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'src/core/tsconfig.json'],
      {
        cwd: copy,
        encoding: 'utf8',
      },
    )
    expect(checked.status).not.toBe(0)
    const errors = checked.stdout.split('\n').filter((line) => line.includes('error TS'))
    expect(errors.length).toBeGreaterThan(0)
    // Every error is the table's, and it says which operation the table lacks.
    for (const error of errors) expect(error, checked.stdout).toMatch(/^src\/core\/operations\/operation-table\.ts\(/)
    expect(checked.stdout).toContain("Property 'deletePet' is missing")
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}, 180_000)
