#!/usr/bin/env node
// Replaces the build's dist/core/store/msw-data.js, a re-export of @msw/data, with one module holding what it exports
// and nothing else of @msw/data's imports (the es-toolkit barrels among them); run by `npm run build` after tsc.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'

const file = fileURLToPath(new URL('../dist/core/store/msw-data.js', import.meta.url))
const { version } = JSON.parse(readFileSync(new URL('../node_modules/@msw/data/package.json', import.meta.url), 'utf8'))
const { output } = await build({
  input: file,
  write: false,
  treeshake: true,
  output: {
    format: 'esm',
    banner: `// @msw/data ${version} (MIT) and its dependencies, bundled by scripts/bundle-msw-data.mjs.`,
  },
})
if (output.length !== 1 || output[0].type !== 'chunk') throw new Error('bundle-msw-data: expected one chunk')
if (output[0].imports.length > 0) throw new Error(`bundle-msw-data: the bundle still imports ${output[0].imports}`)
writeFileSync(file, output[0].code)
// The map tsc wrote describes the re-export, no longer the file.
rmSync(`${file}.map`, { force: true })
