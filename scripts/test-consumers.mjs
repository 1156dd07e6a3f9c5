// @ts-check
// `npm run test:consumers` tries the package as frontend teams get it: packed once, then installed
// with `npm ci` into a fresh copy of each project in test/consumers/ and run there.
//
//   node scripts/test-consumers.mjs [--only <project>] [--tarball <file>] [--keep] [--update-locks]
//
// --tarball takes a tarball packed elsewhere (an earlier commit, a release) instead of packing this checkout.
// --update-locks rewrites each project's lockfile with the README's install command, for when the package's own dependencies change.

import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const repo = fileURLToPath(new URL('..', import.meta.url))
const consumersDir = join(repo, 'test', 'consumers')
const SUITE = 'suite'
const README_PROJECT = 'readme'
const vitestReporter = fileURLToPath(new URL('vitest-counts-by-project.mjs', import.meta.url))
/** No single install or test run of a consumer may hang CI. */
const STEP_TIMEOUT_MS = 5 * 60_000
/** How many projects install at the same time. */
const INSTALLS_AT_ONCE = Math.max(2, availableParallelism())

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    tarball: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'update-locks': { type: 'boolean', default: false },
  },
})

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `test-consumers: Node ${process.version} is too old; run it as \`npm run test:consumers\` (the project's pinned Node)`,
  )
  process.exit(1)
}

/**
 * @typedef {{ name: string, source: string, dir: string, kind: 'vitest' | 'jest' | 'playwright' | 'newman', tarballSpec: string, recipe: string | undefined, runs: number }} Project
 * @typedef {{ environment: string, passed: number, failed: number, skipped: number, seconds: number }} EnvironmentResult
 */

const started = performance.now()
const work = await mkdtemp(join(tmpdir(), 'petstore-consumers-'))
let exitCode = 1
try {
  exitCode = await main()
} finally {
  if (flags.keep) console.log(`(kept ${work})`)
  else await rm(work, { recursive: true, force: true })
}
process.exit(exitCode)

async function main() {
  const projects = await findProjects()

  const tarball = flags.tarball === undefined ? await pack() : resolve(flags.tarball)
  if (tarball === undefined) return 1
  const tarballBytes = await readFile(tarball)

  if (flags['update-locks']) return updateLocks(projects, tarball)

  const tarballDependencies =
    JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: work, quiet: true })).stdout)
      .dependencies ?? {}
  const integrity = `sha512-${createHash('sha512').update(tarballBytes).digest('base64')}`

  const installStarted = performance.now()
  // A few side by side, not all at once: every npm ci at once on a small shared machine ran past the step timeout.
  const installs = await inTurns(INSTALLS_AT_ONCE, projects, (project) =>
    install(project, tarball, integrity, tarballDependencies),
  )
  console.log(
    `== installs: ${seconds(installStarted)} s for ${projects.length} projects, ${INSTALLS_AT_ONCE} at a time`,
  )
  const broken = installs.filter((message) => message !== undefined)
  if (broken.length > 0) return fail(broken.join('\n'))

  /** @type {EnvironmentResult[]} */
  const results = []
  for (const project of projects) {
    // Consecutive runs, each from scratch as `npm test` is (a web server started and stopped by each), every one counted.
    for (let run = 1; run <= project.runs; run++)
      results.push(...(await test(project, project.runs === 1 ? '' : ` run ${run}/${project.runs}`)))
  }

  console.log('\n== consumer matrix')
  console.log(`${'environment'.padEnd(40)} ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'time'.padStart(8)}`)
  for (const result of results) {
    console.log(
      `${result.environment.padEnd(40)} ${String(result.passed).padStart(6)} ${String(result.failed).padStart(6)} ${`${result.seconds.toFixed(1)} s`.padStart(8)}${result.failed > 0 || result.passed === 0 ? '  FAILED' : ''}`,
    )
  }
  const passed = results.reduce((sum, result) => sum + result.passed, 0)
  const failed = results.reduce((sum, result) => sum + result.failed, 0)
  const empty = results.filter((result) => result.passed + result.failed === 0)
  console.log(
    "(time: a vitest project's is the time spent in its files; Jest's, Playwright's and newman's is their run's)",
  )
  console.log(`matrix time: ${seconds(started)} s`)
  if (empty.length > 0) console.log(`no test ran in: ${empty.map((result) => result.environment).join(', ')}`)
  console.log(`${passed} passed, ${failed} failed`)
  return failed === 0 && empty.length === 0 ? 0 : 1
}

/** Packs the repository once; returns the tarball's path, or undefined once the failure is printed. */
async function pack() {
  const packStarted = performance.now()
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: repo, quiet: true })
  if (packed.code !== 0) {
    fail(`npm pack failed:\n${packed.output}`)
    return undefined
  }
  const tarball = join(work, packed.stdout.trim().split('\n').at(-1) ?? '')
  console.log(`== npm pack: ${tarball} (${seconds(packStarted)} s, build included)`)
  return tarball
}

/** @returns {Promise<Project[]>} */
async function findProjects() {
  const names = (await readdir(consumersDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name !== SUITE)
    .map((entry) => entry.name)
    .filter((name) => flags.only === undefined || name === flags.only)
    .sort()
  if (names.length === 0)
    throw new Error(`no consumer project${flags.only === undefined ? '' : ` named ${flags.only}`} in ${consumersDir}`)
  return Promise.all(
    names.map(async (name) => {
      const source = join(consumersDir, name)
      const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8'))
      const dependencies = manifest.devDependencies ?? {}
      const kind =
        '@playwright/test' in dependencies
          ? 'playwright'
          : 'jest' in dependencies
            ? 'jest'
            : 'vitest' in dependencies
              ? 'vitest'
              : 'newman' in dependencies
                ? 'newman'
                : undefined
      if (kind === undefined) throw new Error(`${name}: no test runner among its devDependencies`)
      const tarballSpec = dependencies['petstore-sandbox']
      if (typeof tarballSpec !== 'string' || !tarballSpec.startsWith('file:'))
        throw new Error(`${name}: petstore-sandbox must be a file: dependency on the packed tarball`)
      // A project whose passing must hold run after run (a parallel suite, say) asks for `"consumerMatrix": { "runs": 5 }`.
      const runs = manifest.consumerMatrix?.runs ?? 1
      if (!Number.isInteger(runs) || runs < 1 || runs > 10)
        throw new Error(`${name}: consumerMatrix.runs must be a whole number from 1 to 10`)
      // The README is the recipe of the project that runs its snippets.
      const recipe = name === README_PROJECT ? join(repo, 'README.md') : join(repo, 'docs', 'recipes', `${name}.md`)
      if (existsSync(recipe)) {
        // The scripts a recipe shows are not a file it writes: the project runs its own, which must be the ones shown.
        const shown = recipeScripts(await readFile(recipe, 'utf8'))
        if (shown !== undefined && JSON.stringify(shown.scripts) !== JSON.stringify(manifest.scripts ?? {}))
          throw new Error(
            `${name}: its package.json runs the scripts ${JSON.stringify(manifest.scripts)}, not the ${JSON.stringify(shown.scripts)} ${recipe} shows`,
          )
        if (shown?.type !== undefined && shown.type !== manifest.type)
          throw new Error(
            `${name}: its package.json's "type" is ${JSON.stringify(manifest.type)}, not the ${JSON.stringify(shown.type)} ${recipe} shows`,
          )
      }
      return /** @type {Project} */ ({
        name,
        source,
        dir: join(work, name),
        kind,
        tarballSpec,
        recipe: existsSync(recipe) ? recipe : undefined,
        runs,
      })
    }),
  )
}

/**
 * A fresh copy of the project with the tarball beside it. A project named after a recipe in docs/recipes/ gets that
 * recipe's files, so the recipe runs as written; every other one gets the shared suite, so they all run the same suite.
 */
async function copyProject(/** @type {Project} */ project, /** @type {string} */ tarball) {
  await cp(project.source, project.dir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|test-results)$/.test(path),
  })
  await cp(tarball, join(project.dir, project.tarballSpec.slice('file:'.length)))
  if (project.recipe === undefined) {
    await cp(join(consumersDir, SUITE), join(project.dir, SUITE), { recursive: true })
  } else {
    // The README's project also checks the snippets that are not files: it reads them from the page, and the recipes they quote.
    if (project.name === README_PROJECT) {
      await cp(project.recipe, join(project.dir, 'README.md'))
      await cp(join(repo, 'docs', 'recipes'), join(project.dir, 'docs', 'recipes'), { recursive: true })
    }
    for (const file of recipeFiles(await readFile(project.recipe, 'utf8'))) {
      await mkdir(dirname(join(project.dir, file.path)), { recursive: true })
      await writeFile(join(project.dir, file.path), file.text)
    }
  }
}

/**
 * The files a Markdown page spells out: each fenced block whose info string names one (```ts file=src/app.ts).
 * @param {string} markdown
 * @returns {{ path: string, text: string }[]}
 */
function recipeFiles(markdown) {
  const files = []
  for (const match of markdown.matchAll(/^```[\w-]*[ \t]+file=(\S+)[^\n]*\n([\s\S]*?)^```$/gm)) {
    const [, path = '', text = ''] = match
    if (path.startsWith('/') || path.split('/').includes('..'))
      throw new Error(`recipe file ${path} is outside the project`)
    files.push({ path, text })
  }
  return files
}

/**
 * The `"scripts": {…}` a Markdown page shows in a json block (with the `"type"` after it, if shown), if it shows one.
 * @param {string} markdown
 * @returns {{ scripts: Record<string, string>, type?: string } | undefined}
 */
function recipeScripts(markdown) {
  const match = /^```json\n("scripts":[\s\S]*?)^```$/m.exec(markdown)
  return match === null ? undefined : JSON.parse(`{${match[1]}}`)
}

/**
 * Installs one project from its lockfile; returns what went wrong, if anything.
 * @param {Project} project
 * @param {string} tarball
 * @param {string} integrity
 * @param {Record<string, string>} tarballDependencies
 */
async function install(project, tarball, integrity, tarballDependencies) {
  await copyProject(project, tarball)
  const lockPath = join(project.dir, 'package-lock.json')
  const lock = JSON.parse(await readFile(lockPath, 'utf8'))
  const entry = lock.packages?.['node_modules/petstore-sandbox']
  if (entry === undefined)
    return `${project.name}: its package-lock.json holds no petstore-sandbox; run \`npm run test:consumers -- --update-locks\``
  if (JSON.stringify(sorted(entry.dependencies ?? {})) !== JSON.stringify(sorted(tarballDependencies))) {
    return `${project.name}: its lockfile pins the dependencies of another petstore-sandbox (${JSON.stringify(entry.dependencies)}); run \`npm run test:consumers -- --update-locks\``
  }
  // The tarball is rebuilt on every run, so the temp copy's lockfile takes its new integrity while every other package stays pinned as committed.
  entry.integrity = integrity
  await writeFile(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
  const installStarted = performance.now()
  const result = await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: project.dir,
    quiet: true,
  })
  if (result.code !== 0) return `${project.name}: npm ci failed:\n${result.output}`
  console.log(`== ${project.name}: npm ci ${seconds(installStarted)} s`)
  return undefined
}

/**
 * Runs one project's tests and reads its runner's report.
 * @param {Project} project
 * @param {string} runLabel what tells this run from the project's others, or ''
 * @returns {Promise<EnvironmentResult[]>}
 */
async function test(project, runLabel) {
  const report = join(work, `${project.name}-report.json`)
  await rm(report, { force: true })
  const args = {
    vitest: ['test', '--', '--reporter=default', `--reporter=${vitestReporter}`],
    jest: ['test', '--', '--json', `--outputFile=${report}`],
    playwright: ['test', '--', '--reporter=list,json'],
    newman: ['test', '--', '--reporters', 'cli,json', '--reporter-json-export', report],
  }[project.kind]
  console.log(`\n== ${project.name}${runLabel}: npm ${args.join(' ')}`)
  const testStarted = performance.now()
  // Tools that report telemetry are told not to (Next.js; Storybook's is off in its recipe).
  const env = { CONSUMER_REPORT: report, PLAYWRIGHT_JSON_OUTPUT_NAME: report, CI: 'true', NEXT_TELEMETRY_DISABLED: '1' }
  const result = await run('npm', args, { cwd: project.dir, env })
  const wall = (performance.now() - testStarted) / 1000
  console.log(`== ${project.name}${runLabel}: exit ${result.code} after ${wall.toFixed(1)} s`)
  /** @type {any} */
  let parsed
  try {
    parsed = JSON.parse(await readFile(report, 'utf8'))
  } catch {
    return [{ environment: `${project.name} (no report)${runLabel}`, passed: 0, failed: 1, skipped: 0, seconds: wall }]
  }
  /** @type {EnvironmentResult[]} */
  let results
  if (project.kind === 'vitest') {
    results = Object.entries(
      /** @type {Record<string, { passed: number, failed: number, skipped: number, durationMs: number }>} */ (parsed),
    )
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, counts]) => ({
        environment: name === '' ? project.name : `${project.name} ${name}`,
        passed: counts.passed,
        failed: counts.failed,
        skipped: counts.skipped,
        seconds: counts.durationMs / 1000,
      }))
  } else if (project.kind === 'jest') {
    results = [
      {
        environment: `${project.name} jsdom`,
        passed: parsed.numPassedTests,
        failed: parsed.numFailedTests + parsed.numRuntimeErrorTestSuites,
        skipped: parsed.numPendingTests,
        seconds: wall,
      },
    ]
  } else if (project.kind === 'newman') {
    // Each assertion is a test; a request that got no answer or a script that threw is a failure with none.
    const { assertions } = parsed.run.stats
    results = [
      {
        environment: `${project.name} newman`,
        passed: assertions.total - assertions.failed,
        failed: parsed.run.failures.length,
        skipped: 0,
        seconds: wall,
      },
    ]
  } else {
    const stats = parsed.stats
    results = [
      {
        environment: `${project.name} chromium`,
        passed: stats.expected,
        failed: stats.unexpected + stats.flaky + (parsed.errors?.length ?? 0),
        skipped: stats.skipped,
        seconds: wall,
      },
    ]
  }
  // A runner that failed without a failing test (a crash, a config error) still fails the matrix.
  if (result.code !== 0 && results.every((entry) => entry.failed === 0))
    results.push({
      environment: `${project.name} (exit ${result.code})`,
      passed: 0,
      failed: 1,
      skipped: 0,
      seconds: wall,
    })
  return results.map((entry) => ({ ...entry, environment: entry.environment + runLabel }))
}

/**
 * Regenerates each project's lockfile with the README's install command in a fresh copy.
 * @param {Project[]} projects
 * @param {string} tarball
 */
async function updateLocks(projects, tarball) {
  for (const project of projects) {
    await copyProject(project, tarball)
    const manifestPath = join(project.dir, 'package.json')
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
    delete manifest.devDependencies['petstore-sandbox']
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    await rm(join(project.dir, 'package-lock.json'), { force: true })
    const spec = `./${project.tarballSpec.slice('file:'.length)}`
    console.log(`== ${project.name}: npm install --save-dev ${spec}`)
    const result = await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', spec], {
      cwd: project.dir,
      quiet: true,
    })
    if (result.code !== 0) return fail(`${project.name}: npm install failed:\n${result.output}`)
    const written = JSON.parse(await readFile(manifestPath, 'utf8'))
    if (written.devDependencies['petstore-sandbox'] !== project.tarballSpec) {
      return fail(
        `${project.name}: the README's command wrote ${written.devDependencies['petstore-sandbox']}, not ${project.tarballSpec}`,
      )
    }
    await mkdir(project.source, { recursive: true })
    await cp(join(project.dir, 'package-lock.json'), join(project.source, 'package-lock.json'))
    console.log(`== ${project.name}: package-lock.json rewritten`)
  }
  return 0
}

/**
 * Runs a command; its output goes to the terminal unless `quiet`, and is returned either way.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string>, quiet?: boolean }} options
 * @returns {Promise<{ code: number, stdout: string, output: string }>}
 */
function run(command, args, { cwd, env = {}, quiet = false }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let output = ''
    const timer = setTimeout(() => {
      output += `\n(stopped after ${STEP_TIMEOUT_MS / 1000} s)`
      child.kill('SIGTERM')
    }, STEP_TIMEOUT_MS)
    child.stdout.on('data', (chunk) => {
      stdout += chunk
      output += chunk
      if (!quiet) process.stdout.write(chunk)
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
      if (!quiet) process.stderr.write(chunk)
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? 1, stdout, output })
    })
  })
}

/**
 * Maps `items` through `work`, at most `limit` at a time, keeping their order.
 * @template T, R
 * @param {number} limit
 * @param {T[]} items
 * @param {(item: T) => Promise<R>} work
 * @returns {Promise<R[]>}
 */
async function inTurns(limit, items, work) {
  /** @type {R[]} */
  const results = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(/** @type {T} */ (items[index]))
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** @param {Record<string, string>} record */
function sorted(record) {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}

/** @param {number} since */
function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1)
}

/** @param {string} message */
function fail(message) {
  console.error(`test-consumers: ${message}`)
  return 1
}
