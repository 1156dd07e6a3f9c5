import { ConfigError } from '../errors/config-error.js'

/**
 * Which URLs are the API (D1). Without `baseUrl`, any origin's `/v1`; with one, only that origin
 * and path. `everything` (HTTP mode) also claims the rest of the origin, so that paths outside
 * `/v1` get a 404 Error body with rate-limit headers from the same pipeline.
 */
export function createApiScope(baseUrl: string | undefined, everything = false) {
  let origin: string | undefined
  let prefix = '/v1'
  if (baseUrl !== undefined) {
    let parsed: URL
    try {
      parsed = new URL(baseUrl)
    } catch {
      throw new ConfigError(`baseUrl must be an absolute URL such as http://localhost:4010/v1, got ${JSON.stringify(baseUrl)}`)
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
      return apiPath(url) !== undefined
    },
  }
}

export type ApiScope = ReturnType<typeof createApiScope>
