import { ConfigError } from '../errors/config-error.js'
import { openapiDocument } from './openapi-document.js'

/** Lists the areas the spec names without describing (D11). */
export const UNSPECIFIED_AREAS: readonly string[] = ['/store', '/categories']

/** Lists the API's areas below its prefix (D40). */
export const API_AREAS: readonly string[] = [
  ...new Set([
    ...Object.keys(openapiDocument.paths).map((path) => `/${path.split('/')[1] ?? ''}`),
    ...UNSPECIFIED_AREAS,
  ]),
]

/** Tells whether a path is in one of `areas`: `/pets/12`, not `/petshop`. */
export function inArea(apiPath: string, areas: readonly string[]): boolean {
  return areas.some((area) => apiPath === area || apiPath.startsWith(`${area}/`))
}

/** Creates the test of which URLs are the API (D1, D40). */
export function createApiScope(baseUrl: string | undefined, everything = false) {
  let origin: string | undefined
  let prefix = '/v1'
  if (baseUrl !== undefined) {
    let parsed: URL
    try {
      parsed = new URL(baseUrl)
    } catch {
      throw new ConfigError(
        `baseUrl must be an absolute URL such as http://localhost:4010/v1, got ${JSON.stringify(baseUrl)}`,
      )
    }
    origin = parsed.origin
    prefix = parsed.pathname.replace(/\/+$/, '')
  }

  function apiPath(url: URL): string | undefined {
    if (origin !== undefined && url.origin !== origin) return undefined
    const path = url.pathname
    if (path === prefix) return '/'
    if (path.startsWith(`${prefix}/`)) return path.slice(prefix.length)
    return undefined
  }

  return {
    prefix,
    apiPath,
    claims(url: URL): boolean {
      if (everything) return origin === undefined || url.origin === origin
      const path = apiPath(url)
      return path !== undefined && inArea(path, API_AREAS)
    },
  }
}

export type ApiScope = ReturnType<typeof createApiScope>
