import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { droppedCreateTests } from '../support/dropped-creates.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Creates in flight while their session is dropped, over real HTTP in memory (D34); redis-dropped-creates.test.ts on Redis.
const TOKEN = 'admin-token-for-dropped-creates'
const { call, url, contract } = useCliSandbox([
  '--admin-token',
  TOKEN,
  '--pets',
  '2',
  '--max-pets',
  '6',
  '--max-sessions',
  '2',
])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

droppedCreateTests(
  () => ({
    url,
    check: (method, at, response) => contract.check(method, at, response),
    call: (path, init) => call(path, init),
    admin,
  }),
  'refused',
)
