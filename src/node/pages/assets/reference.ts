export {}

// Starts Swagger UI on /reference. A file of its own: the pages' Content-Security-Policy runs no
// inline script.

interface SwaggerUi {
  preauthorizeApiKey(name: string, value: string): void
}
declare const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUi

const root = document.getElementById('swagger-ui')!
const demoKey = root.dataset.demoKey ?? ''
const ui: SwaggerUi = SwaggerUIBundle({
  url: root.dataset.spec,
  dom_id: '#swagger-ui',
  // No request to the public validator: the page works with no network.
  validatorUrl: null,
  tryItOutEnabled: true,
  deepLinking: false,
  // The schemas show inside each operation; a separate Schemas section only adds render time.
  defaultModelsExpandDepth: -1,
  onComplete() {
    if (demoKey !== '') ui.preauthorizeApiKey('bearerAuth', demoKey)
    // Swagger UI's server picker has a caption but no label: name it for screen readers.
    document.getElementById('servers')?.setAttribute('aria-label', 'Server')
    document.body.dataset.ready = 'true'
  },
})
