import { createHash, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { isMainThread } from 'node:worker_threads'
import { checkSessionName } from '../../core/sessions/session-name.js'

export const RUN_ID_VARIABLE = 'PETSTORE_SANDBOX_RUN_ID'

export const WORKER_VARIABLES = {
  // Kept across a worker's restart.
  playwright: 'TEST_PARALLEL_INDEX',
  vitest: 'VITEST_POOL_ID',
  jest: 'JEST_WORKER_ID',
} as const

export type TestRunner = keyof typeof WORKER_VARIABLES

type Env = Readonly<Record<string, string | undefined>>

export interface TestingProcess {
  env: Env
  runnerPid: number
  hostname: string
}

const thisProcess = (): TestingProcess => ({
  env: process.env,
  // Forked workers have an IPC channel.
  runnerPid: isMainThread && process.send !== undefined ? process.ppid : process.pid,
  hostname: hostname(),
})

/** Returns `PETSTORE_SANDBOX_RUN_ID`, else one id per runner and host. */
export function runId(from: TestingProcess = thisProcess()): string {
  const given = from.env[RUN_ID_VARIABLE]
  if (given !== undefined && given !== '') return checkSessionName(given, RUN_ID_VARIABLE)
  return `run-${createHash('sha256').update(`${from.hostname}:${from.runnerPid}`).digest('hex').slice(0, 10)}`
}

/** Returns the runner and worker, if any. */
export function testWorker(from: TestingProcess = thisProcess()): { runner: TestRunner; index: string } | undefined {
  for (const [runner, variable] of Object.entries(WORKER_VARIABLES) as [TestRunner, string][]) {
    const index = from.env[variable]
    if (index !== undefined && index !== '') return { runner, index }
  }
  return undefined
}

/** Names this test worker's session (D43), else throws. */
export function workerSession(from: TestingProcess = thisProcess()): string {
  const worker = testWorker(from)
  if (worker === undefined) {
    throw new Error(
      `workerSession(): not in a test worker (none of ${Object.values(WORKER_VARIABLES).join(', ')} is set)`,
    )
  }
  return checkSessionName(`${runId(from)}-${worker.runner}-${worker.index}`, 'workerSession()')
}

export function newRunId(): string {
  return `run-${randomUUID().slice(0, 13)}`
}
