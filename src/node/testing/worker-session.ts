import { createHash, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { isMainThread } from 'node:worker_threads'
import { checkSessionName } from '../../core/sessions/session-name.js'

/** Names the variable of a run's id, which `petstore-sandbox run` sets and a runner's workers inherit. */
export const RUN_ID_VARIABLE = 'PETSTORE_SANDBOX_RUN_ID'

/** Lists the runners whose workers `workerSession` names, each by the variable that numbers its workers. */
export const WORKER_VARIABLES = {
  // Reads the worker's slot, which a worker restarted after a failure keeps.
  playwright: 'TEST_PARALLEL_INDEX',
  // Set in every pool (threads, forks, vmThreads, vmForks), 1 to maxWorkers.
  vitest: 'VITEST_POOL_ID',
  jest: 'JEST_WORKER_ID',
} as const

export type TestRunner = keyof typeof WORKER_VARIABLES

type Env = Readonly<Record<string, string | undefined>>

/** Where the run id and the worker are read from; a test gives its own. */
export interface TestingProcess {
  env: Env
  /** The runner's process id: this one in a worker thread, the parent in a forked worker. */
  runnerPid: number
  hostname: string
}

const thisProcess = (): TestingProcess => ({
  env: process.env,
  // Tells a forked worker by its IPC channel to the runner.
  runnerPid: isMainThread && process.send !== undefined ? process.ppid : process.pid,
  hostname: hostname(),
})

/**
 * Returns the id of this test run: `PETSTORE_SANDBOX_RUN_ID`, else one per runner process and host.
 *
 * @example
 * await sandbox.sessions.deleteAll({ prefix: `${runId()}-` })   // this run's sessions, and no other run's
 */
export function runId(from: TestingProcess = thisProcess()): string {
  const given = from.env[RUN_ID_VARIABLE]
  if (given !== undefined && given !== '') return checkSessionName(given, RUN_ID_VARIABLE)
  return `run-${createHash('sha256').update(`${from.hostname}:${from.runnerPid}`).digest('hex').slice(0, 10)}`
}

/** Returns this process's runner and worker number, or undefined outside a known runner's worker. */
export function testWorker(from: TestingProcess = thisProcess()): { runner: TestRunner; index: string } | undefined {
  for (const [runner, variable] of Object.entries(WORKER_VARIABLES) as [TestRunner, string][]) {
    const index = from.env[variable]
    if (index !== undefined && index !== '') return { runner, index }
  }
  return undefined
}

/**
 * Names the current test worker's session (D43): `<run id>-<runner>-<worker>`; throws outside a known runner.
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
