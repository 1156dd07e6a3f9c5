// The suite through sandbox.fetch, with no msw server in the file: nothing intercepts anything, so
// what answers can only be the sandbox itself.
import { createServer } from 'node:http'
import { createSandbox } from 'petstore-sandbox'
import { createPetsClient } from './pets-client.js'
import { definePetsSuite, SEEDED_PETS, STAGING } from './pets-suite.js'

const sandbox = createSandbox({ seed: 7, pets: SEEDED_PETS })

// Passed unbound, as a client that takes a fetch option receives it.
definePetsSuite(sandbox, (apiKey) => createPetsClient({ baseUrl: STAGING, apiKey, fetch: sandbox.fetch }))

it('rejects a request outside the API with a TypeError and sends nothing', async () => {
  let received = 0
  const elsewhere = createServer((_request, response) => {
    received += 1
    response.end('reached')
  })
  await new Promise((resolve) => elsewhere.listen(0, '127.0.0.1', () => resolve(undefined)))
  try {
    const { port } = /** @type {import('node:net').AddressInfo} */ (elsewhere.address())

    await expect(sandbox.fetch(`http://127.0.0.1:${port}/elsewhere`)).rejects.toThrow(TypeError)
    expect(received).toBe(0)
  } finally {
    elsewhere.close()
  }
})
