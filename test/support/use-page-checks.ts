import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { adminContractViolations } from './admin-contract.js'
import { createContractChecker } from './contract-checker.js'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** An axe-core violation, as the tests report it. */
export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

/**
 * What a page test checks on every page it drives: each answer the browser received against its
 * document (/v1 against fixtures/openapi.yaml, the pages and their assets against
 * fixtures/pages-openapi.yaml, the admin API against fixtures/admin-openapi.yaml), and any
 * Content-Security-Policy refusal the page ran into (there must be none).
 */
export function usePageChecks() {
  const contract = createContractChecker()
  const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')
  const pending: Array<Promise<void>> = []
  const cspViolations: string[] = []

  return {
    contract,
    admin,
    cspViolations,
    /** Watches `page`: its answers are held to the documents, its CSP refusals recorded. */
    watch(page: Page): void {
      page.on('console', (message) => {
        if (/Content[ -]Security[ -]Policy/i.test(message.text())) cspViolations.push(message.text())
      })
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname
        const isAdmin = path.startsWith('/__sandbox/') && path !== '/__sandbox/' && path !== '/__sandbox/events'
        // The event stream never ends: its head is checked by the e2e tests, not its body here.
        if (path === '/__sandbox/events') return
        pending.push(
          (async () => {
            // A poll answered as the test closes its page can no longer be read: nothing to check.
            const body = await response
              .body()
              .catch((error: Error) => (/has been closed/.test(error.message) ? undefined : Buffer.alloc(0)))
            if (body === undefined) return
            const status = response.status()
            const replay = new Response(status === 204 || body.byteLength === 0 ? null : new Uint8Array(body), {
              status,
              headers: response.headers(),
            })
            ;(isAdmin ? admin : contract).check(response.request().method(), response.url(), replay)
          })(),
        )
      })
    },
    /** Waits for the checks of every answer seen so far. */
    settled: () => Promise.all(pending),
    /** axe-core's serious and critical violations on the page as it is now. */
    async accessibility(page: Page): Promise<AxeViolation[]> {
      // Evaluated through the DevTools protocol, which the page's CSP does not govern: the page
      // under test keeps its real policy.
      await page.evaluate(axeSource)
      return page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: {
              run(): Promise<{
                violations: Array<{
                  id: string
                  impact: string | null
                  help: string
                  nodes: Array<{ target: string[] }>
                }>
              }>
            }
          }
        ).axe
        const result = await axe.run()
        return result.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            help: violation.help,
            targets: violation.nodes.map((node) => node.target.join(' ')),
          }))
      })
    },
  }
}
