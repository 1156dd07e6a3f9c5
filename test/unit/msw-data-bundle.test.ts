import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import * as source from '../../src/core/store/msw-data.js'

// The build's bundle of @msw/data (scripts/bundle-msw-data.mjs); `npm ci` and `npm run build` make it.
const bundle = new URL('../../dist/core/store/msw-data.js', import.meta.url)

function bundleText(): string {
  expect(existsSync(fileURLToPath(bundle)), 'dist/ is missing: run npm run build').toBe(true)
  return readFileSync(bundle, 'utf8')
}

it('imports no other module and exports what the module it replaces does', async () => {
  const text = bundleText()
  expect(text).not.toMatch(/^\s*import\s/m)
  expect(text).not.toMatch(/^\s*export\s[^;]*\sfrom\s/m)
  expect(Object.keys(await import(bundle.href)).sort()).toEqual(Object.keys(source).sort())
})

it("creates, updates and queries records as @msw/data's own collection does", async () => {
  const bundled = (await import(bundle.href)) as typeof source
  const { createPetSchema } = await import('../../src/core/store/create-pet-schema.js')
  const run = async ({ Collection, Query }: typeof source) => {
    const pets = new Collection({ schema: createPetSchema() })
    for (const [id, name, categoryId] of [
      [1, 'Ace', 1],
      [2, 'Bo', 2],
      [3, 'Cy', 2],
    ] as const)
      await pets.create({ id, name, categoryId })
    await pets.update((q) => q.where({ id: 2 }), {
      data(pet) {
        pet.name = 'Bea'
      },
    })
    await pets.delete((q) => q.where({ id: 3 }))
    return {
      found: pets.findMany((q) => q.where({ categoryId: 2 })).map((pet) => pet.name),
      byQuery: pets.findMany(new Query<{ id: number }>().where({ id: (id) => id < 3 })).map((pet) => pet.id),
      count: pets.count(),
    }
  }
  const ours = await run(bundled)
  expect(ours).toEqual({ found: ['Bea'], byQuery: [1, 2], count: 2 })
  expect(ours).toEqual(await run(source))
})

it('loads no es-toolkit module when the built library makes a sandbox and answers', () => {
  bundleText()
  // A process of its own, recording every module it loads, as a test file importing the package would.
  const script = `
    import module from 'node:module'
    const loaded = []
    module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
    const { createSandbox } = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)})
    const sandbox = createSandbox({ pets: 3 })
    await sandbox.ready()
    const pets = sandbox.pets.all()
    console.log(JSON.stringify({ pets: pets.length, esToolkit: loaded.filter((url) => url.includes('/es-toolkit/')) }))
  `
  const output = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' }),
  ) as { pets: number; esToolkit: string[] }
  expect(output.esToolkit).toEqual([])
  expect(output.pets).toBe(3)
})
