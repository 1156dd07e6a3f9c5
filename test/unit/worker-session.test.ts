import { fork } from 'node:child_process'
import { expect, it } from 'vitest'
import { ConfigError } from '../../src/index.js'
import { runId, testWorker, workerSession } from '../../src/testing.js'

const inProcess = (env: Record<string, string>, runnerPid = 4242, hostname = 'ci-1') => ({ env, runnerPid, hostname })

it('names a worker of each runner after the run and its number', () => {
  const run = runId(inProcess({}))
  expect(run).toMatch(/^run-[0-9a-f]{10}$/)
  expect(workerSession(inProcess({ TEST_PARALLEL_INDEX: '3' }))).toBe(`${run}-playwright-3`)
  expect(workerSession(inProcess({ VITEST_POOL_ID: '2' }))).toBe(`${run}-vitest-2`)
  expect(workerSession(inProcess({ JEST_WORKER_ID: '1' }))).toBe(`${run}-jest-1`)
  expect(testWorker(inProcess({}))).toBeUndefined()
  expect(() => workerSession(inProcess({}))).toThrow(/not in a test worker/)
})

it('takes the run id the variable gives, checked by the name rule; otherwise one per runner process and host', () => {
  expect(workerSession(inProcess({ PETSTORE_SANDBOX_RUN_ID: 'nightly.7', JEST_WORKER_ID: '4' }))).toBe(
    'nightly.7-jest-4',
  )
  expect(() => runId(inProcess({ PETSTORE_SANDBOX_RUN_ID: 'has space' }))).toThrow(ConfigError)
  expect(runId(inProcess({}, 4242, 'ci-1'))).toBe(runId(inProcess({}, 4242, 'ci-1')))
  expect(runId(inProcess({}, 4243, 'ci-1'))).not.toBe(runId(inProcess({}, 4242, 'ci-1')))
  expect(runId(inProcess({}, 4242, 'ci-2'))).not.toBe(runId(inProcess({}, 4242, 'ci-1')))
})

// A runner's forked workers (Jest's, Playwright's, Vitest's forks) share the run id; another runner's differ.
it('gives the forked workers of one runner one run id, and those of another runner another', async () => {
  const worker = `import { workerSession } from ${JSON.stringify(new URL('../../dist/testing.js', import.meta.url).href)}\nprocess.send(workerSession(), () => process.exit(0))`
  const runner = `
    import { fork } from 'node:child_process'
    const names = await Promise.all([1, 2].map((id) => new Promise((resolve) => {
      fork('--input-type=module', [], { execArgv: ['--input-type=module', '-e', ${JSON.stringify(worker)}], env: { ...process.env, JEST_WORKER_ID: String(id) } }).once('message', resolve)
    })))
    process.send(names, () => process.exit(0))`
  const runOnce = () =>
    new Promise<string[]>((resolve, reject) => {
      const env = { ...process.env }
      // This test runs in a Vitest worker: its own variables are not the forked runner's.
      for (const variable of ['PETSTORE_SANDBOX_RUN_ID', 'VITEST_POOL_ID', 'TEST_PARALLEL_INDEX', 'JEST_WORKER_ID'])
        delete env[variable]
      const child = fork('--input-type=module', [], { execArgv: ['--input-type=module', '-e', runner], env })
      child.once('message', (names) => resolve(names as string[]))
      child.once('exit', (code) => code !== 0 && reject(new Error(`runner exited ${code}`)))
    })
  const [first, second] = await Promise.all([runOnce(), runOnce()])
  const runOf = (name: string) => name.replace(/-jest-\d+$/, '')
  expect(first!.map((name) => name.replace(/^run-[0-9a-f]+-/, ''))).toEqual(['jest-1', 'jest-2'])
  expect(runOf(first![0]!)).toBe(runOf(first![1]!))
  expect(runOf(second![0]!)).toBe(runOf(second![1]!))
  expect(runOf(first![0]!)).not.toBe(runOf(second![0]!))
}, 60_000)
