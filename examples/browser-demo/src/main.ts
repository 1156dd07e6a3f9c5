// The demo's entry: start the sandbox in the page, then the app. Only this file knows about the
// sandbox; the app below calls the Animal Store API with fetch as it would call staging.
import { setupWorker } from 'msw/browser'
import { createSandbox } from 'petstore-sandbox'
import { startApp } from './start-app.js'
import { startRehearsal } from './start-rehearsal.js'

const sandbox = createSandbox({ seed: 1, pets: 12 })
// `?now=2030-12-06T00:00:00Z` starts the sandbox clock at that instant (it runs on from there):
// to show getPet after its sunset, or to give a test a minute window that does not roll over.
const now = new URLSearchParams(location.search).get('now')
if (now !== null) sandbox.clock.set(now)
const worker = setupWorker(...sandbox.handlers)
// The worker script is public/mockServiceWorker.js, written by `msw init` (npm run demo:worker).
// Requests outside the API (the page's own files) go to the network as usual.
await worker.start({ onUnhandledFrame: 'bypass', quiet: true })

const app = startApp(document, { baseUrl: new URL('/v1', location.origin).href })
startRehearsal(
  document,
  sandbox,
  () => void app.refresh(),
  () => app.forgetLookup(),
)
