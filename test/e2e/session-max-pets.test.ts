import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { sessionMaxPetsTests } from '../support/session-max-pets.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Sessions from a capsule, a recording or a fork held to --max-pets (D23), over real HTTP in memory; redis-session-max-pets.test.ts on Redis.
const TOKEN = 'admin-token-for-session-max-pets'
const { call, url } = useCliSandbox(['--admin-token', TOKEN, '--pets', '2', '--max-pets', '20'])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

sessionMaxPetsTests(() => ({ call: (path, init) => call(path, init), admin, recorder: (path) => admin(path) }))
