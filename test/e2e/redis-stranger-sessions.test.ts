import { bannedKeyCapsule, strangerSessionsTests } from '../support/stranger-sessions.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Requests admission refuses make no session (D34) on two replicas sharing one Redis: the team through one, strangers through the other.
const { call, admin, replica, contract } = useRedisReplicas(2, [
  '--max-sessions',
  '3',
  '--from',
  await bannedKeyCapsule(),
])

strangerSessionsTests(() => ({
  async call(path, init = {}) {
    const { key, ...rest } = init
    if (key === undefined) return call(0, path, rest)
    if (key !== null) return call(1, path, { ...rest, key })
    // The replicas' caller always sends a key: a keyless stranger's request is sent here, checked alike.
    const target = `${replica(1).url}${path}`
    const response = await fetch(target, rest)
    contract.check(rest.method ?? 'GET', target, response)
    return response
  },
  admin: (path) => admin(0, path),
  origin: () => replica(1).url.replace(/\/v1$/, ''),
}))
