// The machine's own Node, older than the package supports, must get one clear sentence, on import and from the CLI.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

// npm puts the project's pinned Node first on PATH; the machine's own Node comes after it.
function olderNodeOnPath() {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(directory, 'node')
    if (!existsSync(candidate)) continue
    const version = execFileSync(candidate, ['-p', 'process.version'], { encoding: 'utf8' }).trim()
    const [major, minor] = version.slice(1).split('.').map(Number)
    if (major < 22 || (major === 22 && minor < 12)) return { path: candidate, version }
  }
  throw new Error('no Node older than 22.12 on PATH to import the package with')
}

// The message names the two ways on.
const WAYS_ON = '`nvm install 24`, or `npm i -D node@24` in the app and run it through npm scripts'

it('throws a sentence naming Node 22.12 when imported on an older Node', () => {
  const { path, version } = olderNodeOnPath()

  const result = spawnSync(path, ['--input-type=module', '--eval', "await import('petstore-sandbox')"], {
    cwd: projectRoot,
    encoding: 'utf8',
  })

  expect(result.status).not.toBe(0)
  expect(result.stderr).toContain(`petstore-sandbox needs Node 22.12 or newer (this is ${version}): ${WAYS_ON}`)
})

it('makes the CLI print that sentence alone and exit 1 on an older Node', () => {
  const { path, version } = olderNodeOnPath()
  const manifestPath = createRequire(import.meta.url).resolve('petstore-sandbox/package.json')
  const bin = join(dirname(manifestPath), JSON.parse(readFileSync(manifestPath, 'utf8')).bin['petstore-sandbox'])

  const result = spawnSync(path, [bin, 'start', '--port', '0'], { cwd: projectRoot, encoding: 'utf8', timeout: 10_000 })

  expect(result.status).toBe(1)
  expect(result.stderr.trim()).toBe(`petstore-sandbox needs Node 22.12 or newer (this is ${version}): ${WAYS_ON}`)
})
