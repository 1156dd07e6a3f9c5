// The Node-only entry `petstore-sandbox/testing`: the session of the current test worker, named
// per run (docs/running-for-a-team.md#a-session-per-test-worker).
export {
  runId,
  RUN_ID_VARIABLE,
  testWorker,
  type TestRunner,
  workerSession,
  WORKER_VARIABLES,
} from './node/testing/worker-session.js'
