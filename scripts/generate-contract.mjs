#!/usr/bin/env node
// Turns fixtures/openapi.yaml (and the admin API's fixtures/admin-openapi.yaml) into TypeScript
// modules, so the YAML stays the single source of truth and nothing is written twice:
//   src/core/contract/openapi-document.ts  the document itself, so the runtime (Node and browser alike)
//                                     carries the contract without a YAML parser or a file read;
//   src/core/contract/openapi-types.ts     its types (openapi-typescript): Pet, NewPet, PetStatus,
//                                     ApiError and the `paths` an openapi-fetch client is built on;
//   src/core/contract/admin-openapi-document.ts  the admin API's document, which routes and validates it;
//   src/core/contract/spec-openapi-document.ts   fixtures/spec-openapi.yaml, the specification's own terms,
//                                     which `verify` holds a backend's answers to (its seed promises).
// `--check` fails when a committed module is stale: CI runs it.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const source = `${root}fixtures/openapi.yaml`
const yaml = readFileSync(source, 'utf8')
const document = parse(yaml)

const adminDocument = parse(readFileSync(`${root}fixtures/admin-openapi.yaml`, 'utf8'))
const specDocument = parse(readFileSync(`${root}fixtures/spec-openapi.yaml`, 'utf8'))

const headerOf = (file) => `// Generated from fixtures/${file} by scripts/generate-contract.mjs. Do not edit.
// Regenerate with \`npm run generate\`; \`npm run generate -- --check\` fails when this file is stale.
`
const header = headerOf('openapi.yaml')

const outputs = [
  {
    target: 'src/core/contract/openapi-document.ts',
    text: `${header}import type { OpenApiDocument } from './openapi-document-type.js'

export const openapiDocument: OpenApiDocument = ${JSON.stringify(document, null, 2)}
`,
  },
  {
    target: 'src/core/contract/openapi-types.ts',
    // A parsed copy: openapi-typescript would otherwise resolve the document's $refs itself.
    text: `${header}${astToString(await openapiTS(structuredClone(document), { silent: true }))}`,
  },
  {
    target: 'src/core/contract/admin-openapi-document.ts',
    text: `${headerOf('admin-openapi.yaml')}import type { OpenApiDocument } from './openapi-document-type.js'

export const adminOpenapiDocument: OpenApiDocument = ${JSON.stringify(adminDocument, null, 2)}
`,
  },
  {
    target: 'src/core/contract/spec-openapi-document.ts',
    text: `${headerOf('spec-openapi.yaml')}import type { OpenApiDocument } from './openapi-document-type.js'

export const specOpenapiDocument: OpenApiDocument = ${JSON.stringify(specDocument, null, 2)}
`,
  },
]

if (process.argv.includes('--check')) {
  const stale = outputs.filter(({ target, text }) => readFileSync(`${root}${target}`, 'utf8') !== text)
  for (const { target } of stale) console.error(`${target} is stale: run \`npm run generate\` and commit the result.`)
  if (stale.length > 0) process.exit(1)
  console.log(`${outputs.map(({ target }) => target).join(' and ')} are up to date with fixtures/`)
} else {
  for (const { target, text } of outputs) {
    writeFileSync(`${root}${target}`, text)
    console.log(`wrote ${target}`)
  }
}
