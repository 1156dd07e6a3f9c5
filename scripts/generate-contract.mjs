#!/usr/bin/env node
// Turns fixtures/openapi.yaml into a TypeScript module, so the runtime (Node and browser alike)
// carries the contract without a YAML parser or a file read. `--check` fails when the committed
// module is stale: CI runs it, so the YAML stays the single source of truth.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const source = `${root}fixtures/openapi.yaml`
const target = `${root}src/contract/openapi-document.ts`

const document = parse(readFileSync(source, 'utf8'))
const output = `// Generated from fixtures/openapi.yaml by scripts/generate-contract.mjs. Do not edit.
// Regenerate with \`npm run generate\`; \`npm run generate -- --check\` fails when this file is stale.
import type { OpenApiDocument } from './openapi-document-type.js'

export const openapiDocument: OpenApiDocument = ${JSON.stringify(document, null, 2)}
`

if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8')
  if (current !== output) {
    console.error(`${target} is stale: run \`npm run generate\` and commit the result.`)
    process.exit(1)
  }
  console.log('src/contract/openapi-document.ts is up to date with fixtures/openapi.yaml')
} else {
  writeFileSync(target, output)
  console.log(`wrote ${target}`)
}
