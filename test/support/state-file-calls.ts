import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createContractChecker } from './contract-checker.js'
import type { CliProcess } from './start-cli.js'

const KEY = 'sandbox-enterprise-key'

/**
 * The calls the `--state` tests make against CLI processes, each answer held to the contract, and
 * a fresh state file path for each test.
 */
export function useStateFileCalls(prefix: string) {
  const contract = createContractChecker()
  return {
    contract,
    stateFile: async (): Promise<string> => join(await mkdtemp(join(tmpdir(), prefix)), 'state.jsonl'),
    async create(cli: CliProcess, name: string): Promise<Response> {
      const url = `${cli.url}/pets`
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 2 }),
      })
      contract.check('POST', url, response)
      return response
    },
    async getPet(cli: CliProcess, id: number): Promise<Response> {
      const url = `${cli.url}/pets/${id}`
      const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } })
      contract.check('GET', url, response)
      return response
    },
  }
}
