// Exports the Node-only `petstore-sandbox/testing` (docs/running-for-a-team.md#a-session-per-test-worker).
export {
  runId,
  RUN_ID_VARIABLE,
  testWorker,
  type TestRunner,
  workerSession,
  WORKER_VARIABLES,
} from './node/testing/worker-session.js'
