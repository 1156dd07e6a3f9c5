#!/usr/bin/env node
// 200 durable commits to a state file, one at a time (one fdatasync each) vs all at once (group
// commit: one append and one sync for the batch), three rounds side by side.
// Run: npm run build && npx node bench/group-commit.mjs
import { openStateFile } from '../dist/node/persistence/open-state-file.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
/** @type {(id: number) => import('../src/core/store/pet-change.js').PetChange} */
const pet = (id) => ({ kind: 'created', pet: { id, name: 'x', categoryId: 1 } })
for (let round = 0; round < 3; round++) {
  const a = await openStateFile(join(mkdtempSync(join(tmpdir(), 'gc-')), 's'), { seed: 1, pets: 0 })
  let t = performance.now()
  for (let i = 1; i <= 200; i++) await a.commit(pet(i))
  const sequential = performance.now() - t
  await a.close()
  const b = await openStateFile(join(mkdtempSync(join(tmpdir(), 'gc-')), 's'), { seed: 1, pets: 0 })
  t = performance.now()
  await Promise.all(Array.from({ length: 200 }, (_, i) => b.commit(pet(i + 1))))
  const concurrent = performance.now() - t
  await b.close()
  console.log(
    `200 commits: one at a time ${sequential.toFixed(0)} ms (${(sequential / 200).toFixed(2)} ms each), all at once ${concurrent.toFixed(0)} ms`,
  )
}
