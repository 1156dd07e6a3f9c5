/** Puts the admin API outside `/v1` (fixtures/admin-openapi.yaml). */
export const ADMIN_PREFIX = '/__sandbox'

export function isAdminPath(pathname: string): boolean {
  return pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)
}
