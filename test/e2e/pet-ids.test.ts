import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { idEdgeTests, petsFileEndingAt } from '../support/pet-id-edges.js'
import { startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Ids from 1e14 up to 2^53-1 over real HTTP in memory (D37); redis-pet-ids.test.ts holds Redis to the same.
const TOKEN = 'admin-token-for-pet-ids'
const { call, url, contract } = useCliSandbox(['--admin-token', TOKEN, '--pets-file', petsFileEndingAt(99999999999999)])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

idEdgeTests(() => ({
  call: (path, init) => call(path, init),
  admin,
  async createIn(args) {
    const other = await startCli(['--log', 'off', ...args])
    try {
      const target = `${other.url}/pets`
      const init = {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json' },
        body: '{"name":"Over","categoryId":1}',
      }
      const answer = await fetch(target, init)
      contract.check('POST', target, answer)
      return answer
    } finally {
      await other.stop()
    }
  },
}))
