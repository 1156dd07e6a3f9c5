// Every code block of the README, run as pasted: the matrix wrote the `file=` blocks into this project
// (the vitest snippet runs as tests/quick-start.test.ts); here the TypeScript files are type-checked
// with the project's TypeScript, each `sh` block is run with bash (a `start` line in the background,
// until it listens), and each `part-of=` block is found, line for line, in the recipe the matrix runs.
// A block marked `norun` (placeholders, npm test itself, an example body) is listed, not run.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const readme = readFileSync('README.md', 'utf8')
const blocks = [...readme.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, lang, info, text]) => ({
  lang,
  info: info.trim(),
  text,
}))

it('leaves no block unaccounted for: each is a file, a part of a recipe, a shell block, or marked norun', () => {
  const unaccounted = blocks.filter(({ lang, info }) => !(lang === 'sh' || /^(file|part-of)=|^norun$/.test(info)))
  expect(unaccounted).toEqual([])
  console.log(`README: ${blocks.length} blocks, not run: ${blocks.filter(({ info }) => info === 'norun').length}`)
})

it('type-checks the TypeScript snippets with TypeScript 7 (strict)', () => {
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { encoding: 'utf8' })
  expect(result.stdout + result.stderr).toBe('')
  expect(result.status).toBe(0)
})

it('runs the openapi-fetch snippet', async () => {
  await expect(import('../src/client.ts')).resolves.toBeDefined()
})

for (const [index, block] of blocks.entries()) {
  if (block.info.startsWith('part-of=')) {
    const recipe = block.info.slice('part-of='.length)
    it(`finds block ${index + 1} in ${recipe}, which the matrix runs`, () => {
      const recipeLines = new Set(
        readFileSync(recipe, 'utf8')
          .split('\n')
          .map((line) => line.trim()),
      )
      const missing = block.text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('//') && !recipeLines.has(line))
      expect(missing).toEqual([])
    })
  }
  if (block.lang === 'sh' && block.info !== 'norun') {
    it(`runs shell block ${index + 1} as pasted: ${block.text.split('\n')[0]}`, async () => {
      const output = await runShellBlock(block.text)
      expect(output.code, output.text).toBe(0)
      if (block.text.includes('curl') || block.text.includes('petstore-sandbox run'))
        expect(JSON.parse(output.stdout.trim().split('\n').at(-1))).toHaveLength(5)
      if (block.text.includes('--keys ./keys.json'))
        expect(output.server).toMatch(/2 key\(s\) from the keys file[\s\S]*clock: 2030-01-01T/)
      if (block.text.includes('openapi-typescript'))
        expect(readFileSync('src/animal-store.d.ts', 'utf8')).toContain('listPets')
    })
  }
}

/** Runs a shell block: a `petstore-sandbox start` line in the background until it listens, the other lines in order, then stops the server. */
async function runShellBlock(text) {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  const startLine = lines.find((line) => /petstore-sandbox start/.test(line))
  let server
  let serverOutput = ''
  if (startLine !== undefined) {
    server = spawn('bash', ['-c', `exec ${startLine}`], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    server.stdout.on('data', (chunk) => (serverOutput += chunk))
    server.stderr.on('data', (chunk) => (serverOutput += chunk))
    const started = Date.now()
    while (!serverOutput.includes('Listening on') && server.exitCode === null && Date.now() - started < 30_000)
      await new Promise((resolve) => setTimeout(resolve, 100))
    if (!serverOutput.includes('Listening on')) {
      server.kill('SIGKILL')
      return { code: 1, text: `the server did not start:\n${serverOutput}`, stdout: '', server: serverOutput }
    }
  }
  const rest = lines.filter((line) => line !== startLine).join('\n')
  // npx asks before it installs a package (openapi-typescript@7); npm_config_yes answers as a user at a terminal would.
  const env = { ...process.env, npm_config_yes: 'true' }
  const result =
    rest === ''
      ? { status: 0, stdout: '', stderr: '' }
      : spawnSync('bash', ['-euo', 'pipefail', '-c', rest], { encoding: 'utf8', env })
  if (server !== undefined) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  return {
    code: result.status,
    stdout: result.stdout,
    text: `${result.stdout}\n${result.stderr}\n${serverOutput}`,
    server: serverOutput,
  }
}

it('wrote the files the README shows', () => {
  for (const file of ['keys.json', 'tests/quick-start.test.ts', 'src/client.ts', 'src/browser.ts'])
    expect(existsSync(file), file).toBe(true)
})
