// Preloads session propagation into an app's server (docs/running-for-a-team.md#server-rendered-apps).
import { propagateSession } from './node/propagate/propagate-session.js'

export { type PropagateOptions, propagateSession } from './node/propagate/propagate-session.js'

const origin = process.env.PETSTORE_SANDBOX_PROPAGATE_ORIGIN || process.env.PETSTORE_SANDBOX_URL
if (origin) propagateSession({ origin })
