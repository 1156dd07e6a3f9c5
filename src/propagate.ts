// The Node-only preload `node --import petstore-sandbox/propagate`: in an app's server under test,
// the session of the request being handled goes with every request the server makes to the
// sandbox (docs/running-for-a-team.md#server-rendered-apps). Without PETSTORE_SANDBOX_URL it does nothing at all.
import { propagateSession } from './node/propagate/propagate-session.js'

export { type PropagateOptions, propagateSession } from './node/propagate/propagate-session.js'

const origin = process.env.PETSTORE_SANDBOX_PROPAGATE_ORIGIN || process.env.PETSTORE_SANDBOX_URL
if (origin) propagateSession({ origin })
