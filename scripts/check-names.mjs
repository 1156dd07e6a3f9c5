#!/usr/bin/env node
// Names said once. Each list lives in one module of src/core: the plans (PLANS), the fault kinds
// (FAULT_KINDS), the built-in scenarios (their table in scenario-config.ts), the error codes with
// their statuses (ERRORS), the operations (OPERATIONS, held to the contract by the compiler); the decisions are the headings of docs/decisions.md. The CLI's help is
// built from the lists; whatever else repeats them is checked here against them: the documents'
// enums, the docs' tables, every enumeration in the docs and comments, and every range of and
// reference to a decision, every file cited by its path, and start's options in docs/cli.md. Reads the built modules: `npm run generate:check` builds first.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { ERRORS } from '../dist/core/errors/error-code.js'
import { DEFAULT_ERROR_KINDS, FAULT_KINDS } from '../dist/core/faults/fault-config.js'
import { PLAN_NAMES } from '../dist/core/auth/plans.js'
import { OPERATION_IDS } from '../dist/core/operations/operation-table.js'
import { BUILT_IN_SCENARIOS } from '../dist/core/scenarios/scenario-config.js'
import { buildProgram } from '../dist/node/cli/build-program.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (file) => readFileSync(`${root}${file}`, 'utf8')
const problems = []
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)

/** @type {Record<string, { names: readonly string[], source: string }>} */
const LISTS = {
  plans: { names: PLAN_NAMES, source: 'PLANS in src/core/auth/plans.ts' },
  faultKinds: { names: FAULT_KINDS, source: 'FAULT_KINDS in src/core/faults/fault-config.ts' },
  scenarios: { names: BUILT_IN_SCENARIOS, source: 'the built-in scenarios of src/core/scenarios/scenario-config.ts' },
  errors: { names: Object.values(ERRORS).map(({ code }) => code), source: 'ERRORS in src/core/errors/error-code.ts' },
  operations: { names: OPERATION_IDS, source: 'OPERATIONS in src/core/operations/operation-table.ts' },
}

// The documents' enums.
const admin = parse(read('fixtures/admin-openapi.yaml'))
const pages = parse(read('fixtures/pages-openapi.yaml'))
const enums = [
  ['fixtures/admin-openapi.yaml', 'Plan', admin.components.schemas.Plan.enum, LISTS.plans],
  [
    'fixtures/pages-openapi.yaml',
    'FrontDoor.demoKeys[].plan',
    pages.components.schemas.FrontDoor.properties.demoKeys.items.properties.plan.enum,
    LISTS.plans,
  ],
  ['fixtures/admin-openapi.yaml', 'FaultKind', admin.components.schemas.FaultKind.enum, LISTS.faultKinds],
  [
    'fixtures/admin-openapi.yaml',
    'ScenarioBehaviour.kinds[]',
    admin.components.schemas.ScenarioBehaviour.properties.kinds.items.enum,
    {
      names: FAULT_KINDS.filter((kind) => kind !== 'drop'),
      source: 'FAULT_KINDS but drop, in src/core/faults/fault-config.ts',
    },
  ],
  [
    'fixtures/admin-openapi.yaml',
    'ScenarioDefinition.operations',
    admin.components.schemas.ScenarioDefinition.properties.operations.propertyNames.enum,
    LISTS.operations,
  ],
]
for (const [file, where, values, list] of enums) {
  if (!same(values, list.names))
    problems.push(`${file}: the enum of ${where} is ${values.join(', ')}; ${list.source} says ${list.names.join(', ')}`)
}
if (!DEFAULT_ERROR_KINDS.every((kind) => FAULT_KINDS.includes(kind)))
  problems.push('DEFAULT_ERROR_KINDS holds a kind FAULT_KINDS lacks')

// The docs' tables: the first column of the table under a header, in the list's order.
function tableRows(file, header) {
  const lines = read(file).split('\n')
  const start = lines.findIndex((line) => line.trim() === header)
  if (start === -1) {
    problems.push(`${file}: no table headed ${header}`)
    return []
  }
  const rows = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    )
  }
  return rows
}
const scenarioRows = tableRows('docs/running-for-a-team.md', "| scenario | that key's answers |")
if (
  !same(
    scenarioRows.map(([name]) => name),
    BUILT_IN_SCENARIOS,
  )
) {
  problems.push(
    `docs/running-for-a-team.md: the scenarios' table lists ${scenarioRows.map(([name]) => name).join(', ')}; ${LISTS.scenarios.source} says ${BUILT_IN_SCENARIOS.join(', ')}`,
  )
}
const codeRows = tableRows('docs/decisions.md', '| code | status | when |')
const expectedCodes = Object.values(ERRORS).map(({ code, status }) => [
  code,
  status === undefined ? 'the forced one' : String(status),
])
const beforeCodes = problems.length
const tableCodes = new Map(codeRows.map(([code, status]) => [code, status]))
for (const [code, status] of expectedCodes) {
  if (!tableCodes.has(code))
    problems.push(`docs/decisions.md: D2's table lacks ${code} (${status}), which ${LISTS.errors.source} lists`)
  else if (tableCodes.get(code) !== status)
    problems.push(
      `docs/decisions.md: D2's table gives ${code} the status ${tableCodes.get(code)}; ${LISTS.errors.source} binds it to ${status}`,
    )
}
for (const code of tableCodes.keys()) {
  if (!LISTS.errors.names.includes(code))
    problems.push(`docs/decisions.md: D2's table lists ${code}, which ${LISTS.errors.source} lacks`)
}
if (problems.length === beforeCodes && !same([...tableCodes.keys()], LISTS.errors.names)) {
  problems.push(
    `docs/decisions.md: D2's table lists the codes in another order than ${LISTS.errors.source}: ${LISTS.errors.names.join(', ')}`,
  )
}

// Enumerations: a paragraph (or a comment, or a table) that names most of a list in backticks names
// all of it, so a name added to the list cannot be missed where the list is written out. The
// operationIds are words no prose uses otherwise: they count without backticks, in the admin
// document's descriptions too.
const PROSE = [
  ...filesUnder('docs', '.md'),
  'README.md',
  ...filesUnder('src', '.ts').filter((file) => !file.startsWith('src/core/contract/')),
]
const backticked = (name) => `\`${name}\``
const enumerated = [
  { list: LISTS.scenarios, enough: 3, mention: backticked },
  { list: LISTS.plans, enough: 3, mention: backticked },
  { list: LISTS.faultKinds, enough: 2, needs: 'drop', mention: backticked },
  { list: LISTS.operations, enough: 3, mention: (name) => new RegExp(`\\b${name}\\b`) },
]
const mentions = (text, mention) => (typeof mention === 'string' ? text.includes(mention) : mention.test(text))
for (const file of [...PROSE, 'fixtures/admin-openapi.yaml']) {
  for (const paragraph of paragraphs(read(file))) {
    const text = paragraph.map(({ text }) => text).join('\n')
    for (const { list, enough, needs, mention } of enumerated) {
      const named = list.names.filter((name) => mentions(text, mention(name)))
      if (
        named.length >= enough &&
        named.length < list.names.length &&
        (needs === undefined || named.includes(needs))
      ) {
        const missing = list.names.filter((name) => !named.includes(name))
        const at = paragraph.find(({ text }) => named.some((name) => mentions(text, mention(name))))
        problems.push(`${file}:${at.line}: names ${named.join(', ')} but not ${missing.join(', ')} (${list.source})`)
      }
    }
  }
}

/** The text's paragraphs (of Markdown, or of comments), each a list of numbered lines. */
function paragraphs(text) {
  const found = [[]]
  text.split('\n').forEach((line, index) => {
    if (/^\s*(\/\/|\*)?\s*$/.test(line)) found.push([])
    else found.at(-1).push({ line: index + 1, text: line })
  })
  return found.filter((paragraph) => paragraph.length > 0)
}

// Decisions: a range (D1 to Dn) ends at the last one; a reference names one that exists. Numbers are
// handed out ahead of the work that writes them, so a gap is no fault.
const decisions = new Set([...read('docs/decisions.md').matchAll(/^## D(\d+):/gm)].map((match) => Number(match[1])))
const last = Math.max(...decisions)
const CITING = [
  ...PROSE,
  ...filesUnder('fixtures', '.yaml'),
  ...filesUnder('test', '.ts'),
  ...filesUnder('bench', '.mjs'),
  ...filesUnder('scripts', '.mjs'),
]
for (const file of CITING) {
  read(file)
    .split('\n')
    .forEach((text, index) => {
      for (const [, upTo] of text.matchAll(/\bD1 ?(?:to|-|–|through) ?D(\d+)\b/g)) {
        if (Number(upTo) !== last)
          problems.push(
            `${file}:${index + 1}: says D1 to D${upTo}; docs/decisions.md has D1 to D${last} (or say no count)`,
          )
      }
      for (const [, number] of text.matchAll(/\bD(\d+)\b/g)) {
        if (!decisions.has(Number(number)))
          problems.push(`${file}:${index + 1}: cites D${number}, which docs/decisions.md does not have`)
      }
    })
}

// Files cited by path in the docs and comments exist (`core/...` is under src/): a file renamed or
// folded leaves no stale name behind.
const CITED =
  /(?<![\w./-])(?:src\/)?(?:core|node)\/[\w./-]*\.ts\b|(?<![\w./-])(?:bench|scripts)\/[\w./-]*\.mjs\b|(?<![\w./-])test\/[\w./-]*\.ts\b/g
for (const file of [...CITING, 'BENCHMARKS.md']) {
  read(file)
    .split('\n')
    .forEach((text, index) => {
      if (/^\s*import\b|\bfrom '|import\(/.test(text)) return
      for (const [cited] of text.matchAll(CITED)) {
        const path = /^(core|node)\//.test(cited) ? `src/${cited}` : cited
        if (!existsSync(`${root}${path}`)) problems.push(`${file}:${index + 1}: cites ${cited}, which does not exist`)
      }
    })
}

// A folder of more than ten files has a README.md with a line for each of them (and none for a file
// that is gone), so a newcomer finds their way without opening every file.
const FOLDERS = ['src', 'test', 'bench', 'scripts', 'docs', 'examples']
for (const top of FOLDERS) {
  for (const folder of [
    top,
    ...readdirSync(`${root}${top}`, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.parentPath}/${entry.name}`.slice(root.length)),
  ]) {
    if (/(^|\/)(node_modules|consumers|dist|public)(\/|$)/.test(folder)) continue
    const files = readdirSync(`${root}${folder}`, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'README.md')
      .map((entry) => entry.name)
    if (files.length <= 10) continue
    if (!existsSync(`${root}${folder}/README.md`)) {
      problems.push(
        `${folder}/ holds ${files.length} files and no README.md: give it one with a line per file, or fold some`,
      )
      continue
    }
    const readme = read(`${folder}/README.md`)
    const unnamed = files.filter((name) => !readme.includes(name))
    if (unnamed.length > 0) problems.push(`${folder}/README.md has no line for ${unnamed.join(', ')}`)
    for (const [, named] of readme.matchAll(/`([\w.-]+\.(?:ts|mjs|md|yaml|json))`/g)) {
      if (!files.includes(named) && !existsSync(`${root}${folder}/${named}`))
        problems.push(`${folder}/README.md names ${named}, which is not in ${folder}/`)
    }
  }
}

// Every option of `start` that --help shows has its row in docs/cli.md's table of start's options.
const startOptions = buildProgram({
  stdout: () => {},
  stderr: () => {},
  colour: false,
  onSignal: () => {},
  version: '0',
})
  .commands.find((command) => command.name() === 'start')
  .options.filter((option) => !option.hidden)
const optionRows = tableRows('docs/cli.md', '| option | default | meaning |').map(([option]) => option)
for (const option of startOptions) {
  if (!optionRows.some((row) => row === option.long || row.includes(`${option.long} `)))
    problems.push(`docs/cli.md: start's options table has no row for ${option.long}`)
}

function filesUnder(folder, extension) {
  return readdirSync(`${root}${folder}`, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(extension) && !`${entry.parentPath}/`.includes('/node_modules/'),
    )
    .map((entry) => `${entry.parentPath}/${entry.name}`.slice(root.length))
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem)
  console.error(
    `${problems.length} place(s) disagree with what they repeat or describe: fix them (scripts/check-names.mjs says how each is checked).`,
  )
  process.exit(1)
}
console.log(
  `The documents' enums, the docs' tables, enumerations, decision references, cited files and folder READMEs agree with what they repeat (D1 to D${last}).`,
)
