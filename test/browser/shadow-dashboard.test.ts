import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../support/launch-chromium.js'
import { MUTANTS } from '../support/mutants/mutants.js'
import { startUpstream, UPSTREAM_KEY, type Upstream } from '../support/mutants/start-upstream.js'
import { signInToDashboard } from '../support/sign-in-to-dashboard.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { usePageChecks } from '../support/use-page-checks.js'

// `proxy --shadow` (D42): the dashboard's Shadow panel, next to the Proxy panel, shows the drift
// report as it grows, behaviour first. The upstream forgets the pets it creates.
const TOKEN = 'shadow-admin-token-for-browser'
let upstream: Upstream
let proxy: CliProcess
let plain: CliProcess
let browser: Browser
const checks = usePageChecks()

beforeAll(async () => {
  upstream = await startUpstream(MUTANTS.find((mutant) => mutant.name === 'a created pet getPet cannot find')!.create())
  proxy = await startCli(['--upstream', upstream.url, '--shadow', '--log', 'off', '--admin-token', TOKEN], {}, 'proxy')
  plain = await startCli(['--upstream', upstream.url, '--log', 'off', '--admin-token', TOKEN], {}, 'proxy')
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await proxy?.stop()
  await plain?.stop()
  await upstream?.close()
})

async function open(cli: CliProcess): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  checks.watch(page)
  await page.goto(`${cli.url.replace(/\/v1$/, '')}/__sandbox/`)
  await signInToDashboard(page, TOKEN)
  await page.waitForSelector('#proxy:not([hidden])')
  return page
}

it('shows the drift report beside the Proxy panel as it grows, and no Shadow panel without --shadow', async () => {
  const page = await open(proxy)
  await page.waitForSelector('#shadow:not([hidden])')
  expect(await page.isVisible('#shadow-none')).toBe(true)
  const headers = { authorization: `Bearer ${UPSTREAM_KEY}`, 'content-type': 'application/json' }
  const created = await fetch(`${proxy.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Forgotten', categoryId: 1 }) })
  expect(created.status).toBe(201)
  const { id } = await created.json()
  expect((await fetch(`${proxy.url}/pets/${id}`, { headers })).status).toBe(404)
  const row = '#shadow-table tr[data-kind="behaviour"]'
  await page.waitForSelector(row)
  const cells = await page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent))
  expect(cells.slice(0, 6)).toEqual(['behaviour', 'getPet', 'status', '1', '404', '200'])
  expect(cells[6]).toContain(`GET /v1/pets/${id} → 404 / 200`)
  expect(cells[6]).not.toContain(UPSTREAM_KEY)
  expect(await page.textContent('#shadow-counts')).toBe('2 exchanges, 2 compared, 0 dropped.')
  expect(await checks.accessibility(page)).toEqual([])
  await checks.settled()
  await page.close()

  const without = await open(plain)
  expect(await without.isHidden('#shadow')).toBe(true)
  await checks.settled()
  await without.close()
  expect(checks.cspViolations).toEqual([])
}, 60_000)
