import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { bannedKeyCapsule, strangerSessionsTests } from '../support/stranger-sessions.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Requests admission refuses make no session (D34), over real HTTP in memory; redis-stranger-sessions.test.ts on Redis.
const TOKEN = 'admin-token-for-stranger-sessions'
const { call, url } = useCliSandbox(['--admin-token', TOKEN, '--max-sessions', '3', '--from', await bannedKeyCapsule()])
const origin = () => url().replace(/\/v1$/, '')
const admin = createAdminCaller(origin, TOKEN, createAdminContractChecker())

strangerSessionsTests(() => ({ call: (path, init) => call(path, init), admin: (path) => admin(path), origin }))
