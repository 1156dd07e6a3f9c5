import { sessionMaxPetsTests } from '../support/session-max-pets.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Sessions from a capsule, a recording or a fork held to --max-pets (D23) on two replicas sharing one Redis,
// checked in the script that puts the session: sessions are put through one replica, pets created through the other.
const { call, admin } = useRedisReplicas(2, ['--pets', '2', '--max-pets', '20'])

sessionMaxPetsTests(() => ({
  call: (path, init) => call(1, path, init),
  admin: (path, init) => admin(0, path, init),
  recorder: (path) => admin(1, path),
}))
