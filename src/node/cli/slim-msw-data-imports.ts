import module from 'node:module'

/** Maps what `@msw/data` imports from each `es-toolkit` barrel to its own module (held by a unit test). */
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

/** Points `@msw/data`'s barrel imports at five modules in the CLI's process (docs/upstream-reports.md). */
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
