import { afterEach, expect } from 'vitest'
import { contractViolations } from './contract.js'

/**
 * Collects the contract check of every response a test sees and fails the test in `afterEach`
 * if any response broke the contract. Each test tier feeds it from one place: the msw server's
 * `response:mocked` event in-process, the `call` helper over HTTP. `violations` is the check itself:
 * the API's contract by default, the admin API's in admin-contract.ts.
 */
export function createContractChecker(
  violations: (method: string, url: string, response: Response) => Promise<string[]> = contractViolations,
  what = 'responses that break fixtures/openapi.yaml',
) {
  let pending: Array<Promise<string[]>> = []
  let checked = 0

  afterEach(async () => {
    const results = await Promise.all(pending)
    pending = []
    expect(results.flat(), what).toEqual([])
  })

  return {
    check(method: string, url: string, response: Response): void {
      checked++
      pending.push(violations(method, url, response.clone()))
    },
    /** How many responses were checked so far: lets a test prove the checker saw its traffic. */
    count: () => checked,
  }
}
