import type { Secrets } from '../auth/create-masker.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { CLIENT_ADDRESS_HEADER } from '../pipeline/admit.js'
import type { KeptExchange, LogSelection } from '../request-log/create-request-log.js'
import { type Har, type HarSelection, toHar } from '../request-log/to-har.js'

/**
 * A request log's exchanges as the sandbox serves every HAR: the keys and the admin token masked,
 * the contract's version as the creator's, the transport's note of the client's address left out.
 * `sandbox.har()` makes it from the sandbox's own log; `petstore-sandbox proxy` from its log of
 * every answer it gives, the upstream's included, so the two cannot mask differently. Its entries
 * hold the log's own body texts (masked copies only where a secret is found); the admin API
 * writes it an entry at a time (`harText`), never as one string (D36).
 *
 * @example
 * sandboxHar(requestLog, { limit: 50 }, { keys: ['sandbox-free-key'], adminToken }, 'http://127.0.0.1:4010')
 */
export function sandboxHar(
  log: { select(selection: LogSelection): KeptExchange[]; exchange(id: string): KeptExchange | undefined },
  { id, ...selection }: HarSelection,
  secrets: Secrets,
  origin: string | undefined,
): Har {
  const exchanges =
    id === undefined ? log.select(selection) : [log.exchange(id)].filter((exchange) => exchange !== undefined)
  return toHar(exchanges, {
    secrets,
    version: openapiDocument.info.version,
    internalHeaders: [CLIENT_ADDRESS_HEADER],
    ...(origin === undefined ? {} : { origin }),
  })
}
