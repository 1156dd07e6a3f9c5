/** Where the admin API lives on the sandbox's origin, outside the API's `/v1` (fixtures/admin-openapi.yaml). */
export const ADMIN_PREFIX = '/__sandbox'

/**
 * Whether a path is the admin API's: `/__sandbox` or below it.
 *
 * @example
 * isAdminPath('/__sandbox/state') // true
 */
export function isAdminPath(pathname: string): boolean {
  return pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)
}
