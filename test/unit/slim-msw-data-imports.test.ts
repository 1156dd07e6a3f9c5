import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { SLIM_MSW_DATA_IMPORTS } from '../../src/node/cli/slim-msw-data-imports.js'

// The build folder, from the entry's own path (the package exports no package.json).
const build = dirname(fileURLToPath(import.meta.resolve('@msw/data')))

/** Every `import { … } from '<es-toolkit barrel>'` in @msw/data's published build, by specifier. */
function barrelImports(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  const files = readdirSync(build, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.mjs'))
  for (const file of files) {
    const text = readFileSync(join(build, file), 'utf8')
    for (const [, names, specifier] of text.matchAll(
      /import\s*\{([^}]*)\}\s*from\s*["'](es-toolkit(?:\/compat)?)["']/g,
    )) {
      const set = found.get(specifier!) ?? new Set<string>()
      for (const name of names!.split(',')) if (name.trim() !== '') set.add(name.trim().split(/\s+as\s+/)[0]!)
      found.set(specifier!, set)
    }
  }
  return found
}

it('covers every name @msw/data imports from the es-toolkit barrels (if this fails after an upgrade, add the name, or drop the workaround if @msw/data no longer imports a barrel)', () => {
  const imports = barrelImports()
  expect(imports.size, 'no barrel import found: has @msw/data stopped importing them?').toBeGreaterThan(0)
  for (const [specifier, names] of imports) {
    expect(Object.keys(SLIM_MSW_DATA_IMPORTS[specifier] ?? {}), specifier).toEqual(expect.arrayContaining([...names]))
  }
})

it("points each name at the very function the barrel exports, so @msw/data's behaviour cannot change", async () => {
  for (const [barrel, names] of Object.entries(SLIM_MSW_DATA_IMPORTS)) {
    const whole = (await import(barrel)) as Record<string, unknown>
    for (const [name, [own, exported]] of Object.entries(names)) {
      const single = (await import(own)) as Record<string, unknown>
      expect(single[exported], `${own} ${exported}`).toBeTypeOf('function')
      expect(single[exported], `${own} ${exported}`).toBe(whole[name])
    }
  }
})

it('loads @msw/data without either barrel once the CLI has set its hook, and its collections still create, update and query', () => {
  // A process of its own: the hook is process-wide. It runs the built CLI module, as bin/ does.
  const script = `
    import module from 'node:module'
    const loaded = []
    module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
    const { slimMswDataImports } = await import(${JSON.stringify(new URL('../../dist/node/cli/slim-msw-data-imports.js', import.meta.url).href)})
    slimMswDataImports()
    const { Collection } = await import('@msw/data')
    const { createPetSchema } = await import(${JSON.stringify(new URL('../../dist/core/store/create-pet-schema.js', import.meta.url).href)})
    const pets = new Collection({ schema: createPetSchema() })
    await pets.create({ id: 1, name: 'Ace', categoryId: 1 })
    await pets.create({ id: 2, name: 'Bo', categoryId: 2 })
    await pets.update((q) => q.where({ id: 2 }), { data(pet) { pet.name = 'Bea' } })
    const found = pets.findMany((q) => q.where({ categoryId: 2 })).map((pet) => pet.name)
    const barrels = loaded.filter((url) => /es-toolkit\\/dist\\/(compat\\/)?index\\.mjs$/.test(url))
    console.log(JSON.stringify({ barrels, esToolkitModules: loaded.filter((url) => url.includes('/es-toolkit/')).length, found }))
  `
  const output = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' }),
  ) as {
    barrels: string[]
    esToolkitModules: number
    found: string[]
  }
  expect(output.barrels).toEqual([])
  expect(output.found).toEqual(['Bea'])
  expect(output.esToolkitModules).toBeGreaterThan(0)
})
