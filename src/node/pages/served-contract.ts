import { readFileSync } from 'node:fs'
import { openapiDocument } from '../../core/contract/openapi-document.js'

export interface ServedContract {
  yaml: string
  json: string
}

/** Serves fixtures/openapi.yaml as it ships, its `servers` pointed at this sandbox's `/v1`, and as JSON. */
export function createServedContract(): (origin: string) => ServedContract {
  const text = readFileSync(new URL('../../../fixtures/openapi.yaml', import.meta.url), 'utf8')
  // The servers block: from `servers:` to the next top-level key.
  const block = /^servers:\n(?:[ #-].*\n|\n)*/m
  if (!block.test(text)) throw new Error('fixtures/openapi.yaml has no top-level servers block')
  const cache = new Map<string, ServedContract>()
  return (origin) => {
    let served = cache.get(origin)
    if (served === undefined) {
      const server = { url: `${origin}/v1`, description: 'This petstore-sandbox' }
      served = {
        // JSON strings are valid YAML scalars, so the origin needs no YAML quoting rules of its own.
        yaml: text.replace(
          block,
          `servers:\n  - url: ${JSON.stringify(server.url)}\n    description: ${server.description}\n`,
        ),
        json: JSON.stringify({ ...openapiDocument, servers: [server] }, null, 2),
      }
      // Origins come from Host headers: a bounded cache, so a client cannot grow it without end.
      if (cache.size >= 16) cache.clear()
      cache.set(origin, served)
    }
    return served
  }
}
