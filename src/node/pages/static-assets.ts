import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { gzipSync } from 'node:zlib'
import { pagesCss } from './pages-css.js'

export interface StaticAsset {
  body: string | Buffer
  type: string
  /** Whether it may be cached for an hour (a dependency's file, fixed by its version). */
  immutable: boolean
  gzipped: Buffer
}

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'

/** Serves the files under /assets/ by exact name, each read once: the pages' own and Swagger UI's bundle. */
export function createStaticAssets(): (path: string) => StaticAsset | undefined {
  const require = createRequire(import.meta.url)
  type Source = () => Omit<StaticAsset, 'gzipped'>
  const own =
    (name: string): Source =>
    () => ({ body: readFileSync(new URL(`./assets/${name}`, import.meta.url)), type: JS, immutable: false })
  const swagger =
    (name: string, type: string): Source =>
    () => ({ body: readFileSync(require.resolve(`swagger-ui-dist/${name}`)), type, immutable: true })
  const sources: Record<string, Source> = {
    '/assets/pages.css': () => ({ body: pagesCss, type: CSS, immutable: false }),
    '/assets/reference.js': own('reference.js'),
    '/assets/dashboard.js': own('dashboard.js'),
    '/assets/dashboard-view.js': own('dashboard-view.js'),
    '/assets/admin-client.js': own('admin-client.js'),
    '/assets/key-row.js': own('key-row.js'),
    '/assets/fault-row.js': own('fault-row.js'),
    '/assets/request-log-view.js': own('request-log-view.js'),
    '/assets/render-proxy-panel.js': own('render-proxy-panel.js'),
    '/assets/session-panel.js': own('session-panel.js'),
    '/assets/swagger-ui/swagger-ui-bundle.js': swagger('swagger-ui-bundle.js', JS),
    '/assets/swagger-ui/swagger-ui.css': swagger('swagger-ui.css', CSS),
  }
  const loaded = new Map<string, StaticAsset>()
  return (path) => {
    const source = Object.hasOwn(sources, path) ? sources[path] : undefined
    if (source === undefined) return undefined
    let asset = loaded.get(path)
    if (asset === undefined) {
      const { body, type, immutable } = source()
      asset = { body, type, immutable, gzipped: gzipSync(body) }
      loaded.set(path, asset)
    }
    return asset
  }
}
