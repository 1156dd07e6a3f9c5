import { ConfigError } from '../errors/config-error.js'
import { openapiDocument } from './openapi-document.js'

/** D11: areas the spec says exist without saying how they behave; they answer 501. */
export const UNSPECIFIED_AREAS: readonly string[] = ['/store', '/categories']

/**
 * The API's own areas below its prefix: the first segment of every path of the contract
 * (`/pets`) and the areas the spec names without describing them (D11). In-process and in the
 * browser these are all the sandbox claims (D40).
 */
export const API_AREAS: readonly string[] = [
  ...new Set([
    ...Object.keys(openapiDocument.paths).map((path) => `/${path.split('/')[1] ?? ''}`),
    ...UNSPECIFIED_AREAS,
  ]),
]

/**
 * Whether a path below the prefix is in one of `areas` (`/pets`, `/pets/12`, not `/petshop`).
 *
 * @example
 * inArea('/store/orders', UNSPECIFIED_AREAS) // true
 */
export function inArea(apiPath: string, areas: readonly string[]): boolean {
  return areas.some((area) => apiPath === area || apiPath.startsWith(`${area}/`))
}

/**
 * Which URLs are the API (D1, D40). Without `baseUrl`, any origin's `/v1`; with one, only that
 * origin and path. In-process and in the browser the handlers claim only the API's own areas
 * (`/v1/pets…`, `/v1/store…`, `/v1/categories…`), so an app's other API under `/v1` reaches its
 * own handlers. `everything` (HTTP mode) claims the whole origin instead, so that any other path
 * gets a 404 Error body with rate-limit headers from the same pipeline.
 */
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
