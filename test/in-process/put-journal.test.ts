import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { openStateFile } from '../../src/node/persistence/open-state-file.js'

it('journals pets.put like creates: seeded and created pets replaced, and one put beyond every id, all survive a reopen', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-put-')), 'state.jsonl')
  const first = await openStateFile(file, { seed: 1, pets: 3 })
  const sandbox = createSandbox({ pets: 3, storage: first })
  await sandbox.ready()
  const created = await sandbox.pets.create({ name: 'Created', categoryId: 1 })
  await sandbox.pets.put({ id: 2, name: 'Seeded, renamed', categoryId: 9, status: 'sold' })
  await sandbox.pets.put({ ...created, name: 'Created, renamed' })
  await sandbox.pets.put({ id: 10, name: 'Far ahead', categoryId: 1 })
  await first.close()
  expect(await readFile(file, 'utf8')).toContain('{"put":{"id":2,"name":"Seeded, renamed","categoryId":9,"status":"sold"}}')

  for (let reopen = 0; reopen < 2; reopen++) {
    const storage = await openStateFile(file, { seed: 1, pets: 3 })
    const again = createSandbox({ pets: 3, storage })
    await again.ready()
    expect(again.pets.get(2)).toEqual({ id: 2, name: 'Seeded, renamed', categoryId: 9, status: 'sold' })
    expect(again.pets.get(created.id)?.name).toBe('Created, renamed')
    expect(again.pets.get(10)?.name).toBe('Far ahead')
    expect(again.pets.get(1)).toEqual(sandbox.pets.get(1))
    await storage.close()
  }
  const next = await openStateFile(file, { seed: 1, pets: 3 })
  const last = createSandbox({ pets: 3, storage: next })
  expect((await last.pets.create({ name: 'After', categoryId: 1 })).id).toBe(11)
  await next.close()
})
