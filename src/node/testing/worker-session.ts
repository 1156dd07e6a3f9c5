import { createHash, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { isMainThread } from 'node:worker_threads'
import { checkSessionName } from '../../core/sessions/session-name.js'

/** The variable a run's id is read from: `petstore-sandbox run` sets it for its command; a runner's workers inherit it. */
export const RUN_ID_VARIABLE = 'PETSTORE_SANDBOX_RUN_ID'

/** The test runners whose workers `workerSession` names, each by the variable that numbers its workers. */
export const WORKER_VARIABLES = {
  // The worker's slot, 0 to workers - 1: a worker started again after a failure keeps its slot's session.
  playwright: 'TEST_PARALLEL_INDEX',
  // Set in every pool (threads, forks, vmThreads, vmForks), 1 to maxWorkers.
  vitest: 'VITEST_POOL_ID',
  jest: 'JEST_WORKER_ID',
} as const

export type TestRunner = keyof typeof WORKER_VARIABLES

type Env = Readonly<Record<string, string | undefined>>

/** Where the run id and the worker are read from: the process's own by default; a test gives its own. */
export interface TestingProcess {
  env: Env
  /** The process whose workers these are: this one in a worker thread or a runner's own process, the parent in a forked worker. */
  runnerPid: number
  hostname: string
}

const thisProcess = (): TestingProcess => ({
  env: process.env,
  // A forked worker has an IPC channel to its runner; a worker thread and a runner running tests in band are the runner.
  runnerPid: isMainThread && process.send !== undefined ? process.ppid : process.pid,
  hostname: hostname(),
})

/**
 * The id of the test run this process is part of, shared by the run's workers: `PETSTORE_SANDBOX_RUN_ID`
 * when set (`petstore-sandbox run` sets it for its command), otherwise one per runner process
 * (its host and process id), so two runs at once, on one machine or several, never share it.
 *
 * @example
 * await sandbox.sessions.deleteAll({ prefix: `${runId()}-` })   // this run's sessions, and no other run's
 */
export function runId(from: TestingProcess = thisProcess()): string {
  const given = from.env[RUN_ID_VARIABLE]
  if (given !== undefined && given !== '') return checkSessionName(given, RUN_ID_VARIABLE)
  return `run-${createHash('sha256').update(`${from.hostname}:${from.runnerPid}`).digest('hex').slice(0, 10)}`
}

/** The runner and number of the test worker this process is, or undefined outside a known runner's worker. */
export function testWorker(from: TestingProcess = thisProcess()): { runner: TestRunner; index: string } | undefined {
  for (const [runner, variable] of Object.entries(WORKER_VARIABLES) as [TestRunner, string][]) {
    const index = from.env[variable]
    if (index !== undefined && index !== '') return { runner, index }
  }
  return undefined
}

/**
 * The session of the current test worker (D43): `<run id>-<runner>-<worker>`, e.g.
 * `run-3f9a0c21be-vitest-2`, for Playwright, Vitest (every pool) and Jest. Throws outside a worker
 * of one of them.
 *
 * @example
 * import { workerSession } from 'petstore-sandbox/testing'
 * const headers = { Authorization: 'Bearer sandbox-free-key', 'X-Sandbox-Session': workerSession() }
 */
export function workerSession(from: TestingProcess = thisProcess()): string {
  const worker = testWorker(from)
  if (worker === undefined) {
    throw new Error(
      `workerSession(): not in a test worker (none of ${Object.values(WORKER_VARIABLES).join(', ')} is set)`,
    )
  }
  return checkSessionName(`${runId(from)}-${worker.runner}-${worker.index}`, 'workerSession()')
}

/** A fresh run id, for `petstore-sandbox run` to give its command. */
export function newRunId(): string {
  return `run-${randomUUID().slice(0, 13)}`
}
