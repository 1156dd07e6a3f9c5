import { droppedCreateTests } from '../support/dropped-creates.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Creates in flight while their session is dropped, on two replicas of one Redis (D34), as dropped-creates.test.ts in memory.
const { call, admin, contract, replica } = useRedisReplicas(2, [
  '--pets',
  '2',
  '--max-pets',
  '6',
  '--max-sessions',
  '2',
])
let turn = 0

droppedCreateTests(
  () => ({
    url: () => replica(0).url,
    check: (method, at, response) => contract.check(method, at, response),
    call: (path, init) => call(turn++ % 2, path, init),
    admin: (path, init) => admin(turn++ % 2, path, init),
  }),
  'in the new session',
)
