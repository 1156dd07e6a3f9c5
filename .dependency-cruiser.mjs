// The import rules `npm run check:imports` enforces: no cycles between modules or between folders,
// an environment-free core (docs/architecture.md), and browser-only page scripts (src/node/pages/assets/).
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      scope: 'folder',
      comment: 'Folders that import each other',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-node',
      severity: 'error',
      comment: 'The core runs in browsers: nothing of src/node',
      from: { path: '^src/(core/|index\\.ts)' },
      to: { path: '^src/node/' },
    },
    {
      name: 'core-imports-no-builtins',
      severity: 'error',
      comment: 'The core runs in browsers: no node: modules',
      from: { path: '^src/(core/|index\\.ts)' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'browser-assets-know-no-node',
      severity: 'error',
      comment: 'src/node/pages/assets/ runs in the browser: nothing of src/node outside it (the core is fine)',
      from: { path: '^src/node/pages/assets/' },
      to: { path: '^src/node/', pathNot: '^src/node/pages/assets/' },
    },
    {
      name: 'browser-assets-import-no-builtins',
      severity: 'error',
      comment: 'src/node/pages/assets/ runs in the browser: no node: modules',
      from: { path: '^src/node/pages/assets/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
