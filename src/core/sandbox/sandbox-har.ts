import type { Secrets } from '../auth/create-masker.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { CLIENT_ADDRESS_HEADER } from '../pipeline/admit.js'
import type { KeptExchange } from '../request-log/create-request-log.js'
import { type Har, toHar } from '../request-log/to-har.js'

/**
 * A request log's exchanges (all it keeps, or the one with `id`) as the sandbox serves every HAR:
 * the keys and the admin token masked, the contract's version as the creator's, the transport's
 * note of the client's address left out. `sandbox.har()` makes it from the sandbox's own log;
 * `petstore-sandbox proxy` from its log of every answer it gives, the upstream's included, so the
 * two cannot mask differently.
 *
 * @example
 * sandboxHar(requestLog, undefined, { keys: ['sandbox-free-key'], adminToken }, 'http://127.0.0.1:4010')
 */
export function sandboxHar(
  log: { exchanges(): KeptExchange[]; exchange(id: string): KeptExchange | undefined },
  id: string | undefined,
  secrets: Secrets,
  origin: string | undefined,
): Har {
  const exchanges = id === undefined ? log.exchanges() : [log.exchange(id)].filter((exchange) => exchange !== undefined)
  return toHar(exchanges, {
    secrets,
    version: openapiDocument.info.version,
    internalHeaders: [CLIENT_ADDRESS_HEADER],
    ...(origin === undefined ? {} : { origin }),
  })
}
