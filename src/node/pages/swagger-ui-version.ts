import { createRequire } from 'node:module'

/**
 * The version of the `swagger-ui-dist` the pages serve: the reference names its assets with it
 * (`?v=`), so those URLs can be cached for good and a new version is a new URL.
 */
export function swaggerUiVersion(): string {
  return (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version
}
