export {}

// Starts Swagger UI on /reference, from a file as the CSP runs no inline script.

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

/** Marks the page ready once every operation is on screen, which onComplete may precede. */
function markReady(): void {
  if (root.querySelectorAll('.opblock').length < operations) {
    requestAnimationFrame(markReady)
    return
  }
  document.body.dataset.ready = 'true'
}

// Labels Swagger UI's server picker for screen readers whenever it renders.
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
