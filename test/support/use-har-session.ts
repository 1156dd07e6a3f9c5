import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createContractChecker } from './contract-checker.js'
import { createAdminContractChecker } from './admin-contract.js'
import { startCli } from './start-cli.js'

/** One exchange as the client saw it: what a browser's HAR import must show again. */
export interface SeenExchange {
  method: string
  url: string
  status: number
  requestBody?: string
  /** The body as received; '' for none (HEAD). */
  responseBody: string
  responseHeaders: Record<string, string>
}

export interface HarSession {
  /** The sandbox's HAR of the session, as served by GET /__sandbox/requests.har. */
  har: string
  /** The same HAR in a file named session.har, for a browser's Import. */
  file: string
  exchanges: SeenExchange[]
  /** The keys and the admin token the session used: none may appear in full in the HAR. */
  secrets: string[]
}

const TOKEN = 'admin-token-for-har-import'

/**
 * Runs the CLI sandbox, sends it a session of varied exchanges over HTTP (a list with a query, a
 * create with a body, a refusal without a key, an unknown pet, a key in a scenario, a HEAD), each
 * held to its OpenAPI document, and returns the sandbox's HAR of it. Call at a test file's top level
 * (the contract checkers report in afterEach); stops the sandbox before it resolves.
 */
export function useHarSession(): () => Promise<HarSession> {
  const contract = createContractChecker()
  const admin = createAdminContractChecker()
  return async () => {
    const cli = await startCli([
      '--log',
      'off',
      '--admin-token',
      TOKEN,
      '--pets',
      '4',
      '--scenario',
      'sandbox-free-key=empty',
    ])
    try {
      const exchanges: SeenExchange[] = []
      const send = async (method: string, path: string, key: string | undefined, body?: object) => {
        const url = `${cli.url}${path}`
        const requestBody = body === undefined ? undefined : JSON.stringify(body)
        const response = await fetch(url, {
          method,
          headers: {
            ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
            ...(requestBody === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: requestBody,
        })
        contract.check(method, url, response)
        exchanges.push({
          method,
          url,
          status: response.status,
          ...(requestBody === undefined ? {} : { requestBody }),
          responseBody: await response.text(),
          responseHeaders: Object.fromEntries(response.headers),
        })
      }
      await send('GET', '/pets?limit=2', 'sandbox-pro-key')
      await send('POST', '/pets', 'sandbox-pro-key', { name: 'Imported', categoryId: 2 })
      await send('GET', '/pets/1', undefined)
      await send('GET', '/pets/999', 'sandbox-pro-key')
      await send('GET', '/pets', 'sandbox-free-key')
      await send('HEAD', '/pets/3', 'sandbox-pro-key')

      const harUrl = `${cli.url.replace(/\/v1$/, '')}/__sandbox/requests.har`
      const response = await fetch(harUrl, { headers: { authorization: `Bearer ${TOKEN}` } })
      admin.check('GET', harUrl, response)
      const har = await response.text()
      const file = join(await mkdtemp(join(tmpdir(), 'petstore-har-import-')), 'session.har')
      await writeFile(file, har)
      return { har, file, exchanges, secrets: ['sandbox-pro-key', 'sandbox-free-key', TOKEN] }
    } finally {
      await cli.stop()
    }
  }
}
