import type { Secrets } from '../auth/create-masker.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { CLIENT_ADDRESS_HEADER } from '../pipeline/admit.js'
import type { KeptExchange, LogSelection } from '../request-log/create-request-log.js'
import { type Har, type HarSelection, toHar } from '../request-log/to-har.js'

/** Writes a request log's exchanges as HAR, masked (D35, D36). */
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
