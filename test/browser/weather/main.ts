// A page whose sandbox answers from a service worker, and whose test sets a session's weather
// through the sandbox object (docs/decisions.md#d45).
import { setupWorker } from 'msw/browser'
import { createSandbox } from 'petstore-sandbox'

const sandbox = createSandbox({ seed: 1, pets: 3 })
await setupWorker(...sandbox.handlers).start({ onUnhandledFrame: 'bypass', quiet: true })
Object.assign(globalThis, { sandbox })
document.body.dataset.ready = 'yes'
