// The suite through msw: setupServer serves the sandbox's handlers and the client calls the
// environment's global fetch, as an app under test does.
import { setupServer } from 'msw/node'
import { createSandbox } from 'petstore-sandbox'
import { createPetsClient } from './pets-client.js'
import { definePetsSuite, SEEDED_PETS, STAGING } from './pets-suite.js'

const sandbox = createSandbox({ seed: 7, pets: SEEDED_PETS })
const server = setupServer(...sandbox.handlers)

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

// The global is looked up on every call, so whatever the environment installs is what is called.
definePetsSuite(sandbox, (apiKey) =>
  createPetsClient({ baseUrl: STAGING, apiKey, fetch: (input, init) => fetch(input, init) }),
)
