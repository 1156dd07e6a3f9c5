import { idEdgeTests, petsFileEndingAt } from '../support/pet-id-edges.js'
import { startCli } from '../support/start-cli.js'
import { ADMIN_TOKEN, useRedisReplicas } from '../support/use-redis-replicas.js'

// Ids from 1e14 up to 2^53-1 on two replicas of one Redis (D37), as pet-ids.test.ts holds memory to:
// the store's scripts write every id in plain digits, never Lua's 14-digit numbers.
const { call, admin, contract, redis } = useRedisReplicas(2, ['--pets-file', petsFileEndingAt(99999999999999)])
let turn = 0

idEdgeTests(() => ({
  // Turn by turn through either replica.
  call: (path, init) => call(turn++ % 2, path, init),
  admin: (path, init) => admin(turn++ % 2, path, init),
  async createIn(args) {
    const other = await startCli([
      '--log',
      'off',
      '--redis',
      redis().url,
      '--admin-token',
      ADMIN_TOKEN,
      '--redis-prefix',
      'at-the-top:',
      ...args,
    ])
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
