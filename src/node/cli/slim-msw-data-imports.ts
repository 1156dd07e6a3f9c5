import module from 'node:module'

/**
 * What `@msw/data` imports from each `es-toolkit` barrel, and the module of its own each name
 * lives in, with the name it has there (the barrels re-export the same functions). A name missing
 * here fails the CLI at start, which `test/unit/slim-msw-data-imports.test.ts` catches when
 * `@msw/data` is upgraded.
 */
export const SLIM_MSW_DATA_IMPORTS: Readonly<Record<string, Readonly<Record<string, readonly [string, string]>>>> = {
  'es-toolkit/compat': {
    get: ['es-toolkit/compat/get', 'default'],
    set: ['es-toolkit/compat/set', 'default'],
    unset: ['es-toolkit/compat/unset', 'default'],
  },
  'es-toolkit': {
    isEqual: ['es-toolkit/predicate/isEqual', 'isEqual'],
    isPlainObject: ['es-toolkit/predicate/isPlainObject', 'isPlainObject'],
  },
}

/**
 * In the CLI's own process, points `@msw/data`'s imports of the `es-toolkit` barrels at the modules
 * of the five functions it uses: the barrels are most of the modules a start-up loads, for the same
 * functions (docs/upstream-reports.md, BENCHMARKS.md start-up). A workaround, to be removed when
 * `@msw/data` imports them so itself; the library never sets hooks in its host. Where Node has no
 * `module.registerHooks` (before 22.15), nothing changes.
 */
export function slimMswDataImports(): void {
  module.registerHooks?.({
    resolve(specifier, context, nextResolve) {
      const names = SLIM_MSW_DATA_IMPORTS[specifier]
      if (names === undefined || !context.parentURL?.includes('/node_modules/@msw/data/'))
        return nextResolve(specifier, context)
      // Resolved from @msw/data, so each module is the one its own import would have reached.
      const source = Object.entries(names)
        .map(
          ([name, [own, exported]]) =>
            `export { ${exported} as ${name} } from ${JSON.stringify(nextResolve(own, context).url)}`,
        )
        .join('\n')
      return { url: `data:text/javascript,${encodeURIComponent(source)}`, format: 'module', shortCircuit: true }
    },
  })
}
