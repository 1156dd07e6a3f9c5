import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createSandbox, type PetChange, type Sandbox } from '../../src/index.js'
import { openStateFile } from '../../src/node/persistence/open-state-file.js'

interface RoundTrip {
  /** Changes made through the pet repository, journalled as this kind (and maybe others before it). */
  make(sandbox: Sandbox): Promise<unknown>
  /** The id the next created pet gets after the restart. */
  next: number
}

// One row per kind of PetChange: a kind added to the union fails the typecheck here until it has its row.
const ROUND_TRIPS: { [Kind in PetChange['kind']]: RoundTrip } = {
  created: {
    make: async (sandbox) => {
      await sandbox.pets.create({ name: 'First', categoryId: 1 })
      await sandbox.pets.create({ name: 'Second', categoryId: 2, status: 'pending' })
    },
    next: 6,
  },
  put: {
    make: async (sandbox) => {
      const created = await sandbox.pets.create({ name: 'Created', categoryId: 1 })
      await sandbox.pets.put({ id: 2, name: 'Seeded, renamed', categoryId: 9, status: 'sold' })
      await sandbox.pets.put({ ...created, name: 'Created, renamed' })
      await sandbox.pets.put({ id: 10, name: 'Far ahead', categoryId: 1 })
    },
    next: 11,
  },
  reset: {
    make: async (sandbox) => {
      await sandbox.pets.create({ name: 'Forgotten', categoryId: 1 })
      await sandbox.pets.put({ id: 1, name: 'Forgotten too', categoryId: 1 })
      await sandbox.reset()
      await sandbox.pets.create({ name: 'After the reset', categoryId: 3 })
    },
    next: 5,
  },
}

for (const [kind, { make, next }] of Object.entries(ROUND_TRIPS)) {
  it(`keeps the pets as they were across --state restarts: ${kind}`, async () => {
    const file = join(await mkdtemp(join(tmpdir(), `petstore-round-trip-${kind}-`)), 'state.jsonl')
    const identity = { seed: 1, pets: 3 }
    const first = await openStateFile(file, identity)
    const sandbox = createSandbox({ pets: 3, seed: 1, storage: first })
    await sandbox.ready()
    await make(sandbox)
    const before = sandbox.pets.all()
    await first.close()

    // Twice: the first restart reads the appended journal, the second the one it compacted.
    for (let restart = 1; restart <= 2; restart++) {
      const storage = await openStateFile(file, identity)
      const again = createSandbox({ pets: 3, seed: 1, storage })
      await again.ready()
      expect(again.pets.all(), `restart ${restart}`).toEqual(before)
      await storage.close()
    }
    const storage = await openStateFile(file, identity)
    const last = createSandbox({ pets: 3, seed: 1, storage })
    expect((await last.pets.create({ name: 'Next', categoryId: 1 })).id).toBe(next)
    await storage.close()
  })
}
