export {}

// Starts Swagger UI on /reference. A file of its own: the pages' Content-Security-Policy runs no
// inline script.

interface SwaggerUi {
  preauthorizeApiKey(name: string, value: string): void
}
declare const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUi

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
const root = document.getElementById('swagger-ui')!
const demoKey = root.dataset.demoKey ?? ''
// The document is in the page already (reference-page.ts): no request for it.
const spec = JSON.parse(document.getElementById('openapi-document')!.textContent ?? '{}') as {
  paths?: Record<string, Record<string, unknown>>
}
const operations = Object.values(spec.paths ?? {}).flatMap((item) =>
  Object.keys(item).filter((name) => METHODS.has(name)),
).length

/**
 * The page is ready once every operation of the document is on screen: Swagger UI calls onComplete
 * when it has the document, which can be before it has rendered it.
 */
function markReady(): void {
  if (root.querySelectorAll('.opblock').length < operations) {
    requestAnimationFrame(markReady)
    return
  }
  document.body.dataset.ready = 'true'
}

// Swagger UI's server picker has a caption but no label: it is named for screen readers whenever
// Swagger UI (re)renders it.
new MutationObserver(() => {
  const servers = document.getElementById('servers')
  if (servers !== null && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server')
}).observe(root, { childList: true, subtree: true })

const ui: SwaggerUi = SwaggerUIBundle({
  spec,
  dom_id: '#swagger-ui',
  // No request to the public validator: the page works with no network.
  validatorUrl: null,
  tryItOutEnabled: true,
  deepLinking: false,
  // The schemas show inside each operation; a separate Schemas section only adds render time.
  defaultModelsExpandDepth: -1,
  onComplete() {
    if (demoKey !== '') ui.preauthorizeApiKey('bearerAuth', demoKey)
    markReady()
  },
})
