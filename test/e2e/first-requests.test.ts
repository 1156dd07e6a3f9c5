import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { pagesContractViolations } from '../support/pages-contract.js'
import { createSandbox } from '../../src/core/sandbox/create-sandbox.js'
import { startServer } from '../../src/node/server/start-server.js'
import { startCli } from '../support/start-cli.js'

// The pages load on the first request outside /v1 (src/node/server/start-server.ts): requests
// that arrive together before they exist must each get the answer they would get later.
const contract = createContractChecker()
const pagesContract = createContractChecker(pagesContractViolations, 'responses that break fixtures/pages-openapi.yaml')
const adminContract = createAdminContractChecker()
const TOKEN = 'admin-token-for-first-requests'

it('answers pages, probes, the admin API and the API alike when they are the first requests, all at once', async () => {
  const cli = await startCli(['--log', 'off', '--pets', '3', '--admin-token', TOKEN])
  try {
    const origin = cli.url.replace(/\/v1$/, '')
    const key = { authorization: 'Bearer sandbox-free-key' }
    const admin = { authorization: `Bearer ${TOKEN}` }
    const requests: Array<[string, string, RequestInit, number, typeof contract]> = [
      ['GET', '/', { headers: { accept: 'application/json' } }, 200, pagesContract],
      ['GET', '/openapi.json', {}, 200, pagesContract],
      ['GET', '/reference', {}, 200, pagesContract],
      ['GET', '/__sandbox/', {}, 200, pagesContract],
      ['POST', '/', { body: '{"name":"Ace"}', headers: { 'content-type': 'application/json' } }, 405, pagesContract],
      ['GET', '/healthz', {}, 200, adminContract],
      ['GET', '/__sandbox/clock', { headers: admin }, 200, adminContract],
      ['GET', '/v1/pets?limit=2', { headers: key }, 200, contract],
      [
        'POST',
        '/v1/pets',
        {
          method: 'POST',
          body: '{"name":"Bea","categoryId":1}',
          headers: { ...key, 'content-type': 'application/json' },
        },
        201,
        contract,
      ],
      ['GET', '/no-such-page', { headers: key }, 404, contract],
    ]
    const answers = await Promise.all(
      requests.map(async ([method, path, init, , checker]) => {
        const response = await fetch(`${origin}${path}`, { ...init, method })
        checker.check(method, response.url, response)
        await response.arrayBuffer()
        return [`${method} ${path}`, response.status] as const
      }),
    )
    expect(Object.fromEntries(answers)).toEqual(
      Object.fromEntries(requests.map(([method, path, , status]) => [`${method} ${path}`, status])),
    )
  } finally {
    expect(await cli.stop()).toEqual({ code: 0, signal: null })
  }
})

it('answers as the API does, and stays up, when the pages cannot be made', async () => {
  const sandbox = createSandbox({ pets: 3 })
  await sandbox.ready()
  let attempts = 0
  const server = await startServer({
    handlers: sandbox.originHandlers,
    port: 0,
    host: '127.0.0.1',
    pages: () => {
      attempts++
      return Promise.reject(new Error('a broken install'))
    },
  })
  try {
    const origin = server.url.replace(/\/v1$/, '')
    for (const path of ['/', '/reference']) {
      const response = await fetch(`${origin}${path}`, { headers: { authorization: 'Bearer sandbox-free-key' } })
      contract.check('GET', response.url, response)
      expect(response.status).toBe(404)
      expect(((await response.json()) as { code: string }).code).toBe('not_found')
    }
    const listed = await fetch(`${server.url}/pets?limit=1`, { headers: { authorization: 'Bearer sandbox-free-key' } })
    contract.check('GET', listed.url, listed)
    expect(listed.status).toBe(200)
    expect(attempts).toBe(1)
  } finally {
    await server.close()
  }
})
