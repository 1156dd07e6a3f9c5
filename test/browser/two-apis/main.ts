// An app that calls two APIs, both under /v1: the sandbox's handlers first, then the app's own
// handler for its weather API, in one service worker (docs/in-process.md#other-apis, D40).
import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
import { createSandbox } from 'petstore-sandbox'

const sandbox = createSandbox({ seed: 1, pets: 3 })
const worker = setupWorker(
  ...sandbox.handlers,
  http.get('https://weather.example/v1/forecast', () =>
    HttpResponse.json({ city: 'Lyon', celsius: 21 }, { headers: { 'access-control-allow-origin': '*' } }),
  ),
)
await worker.start({ onUnhandledFrame: 'bypass', quiet: true })
document.body.dataset.ready = 'yes'
