import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../support/launch-chromium.js'
import { signInToDashboard } from '../support/sign-in-to-dashboard.js'
import { usePageChecks } from '../support/use-page-checks.js'
import { ADMIN_TOKEN, useRedisReplicas } from '../support/use-redis-replicas.js'

// The dashboard of one replica showing a session that another replica's clients use (D21, D34):
// on Redis a session is one world across the replicas, and the board follows it from any of them.
const { call, replica } = useRedisReplicas(2, ['--pets', '5'])
const checks = usePageChecks()
let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
})

const statuses = (page: Page) =>
  page.$$eval('#log-table tbody tr', (rows) => rows.map((row) => row.getAttribute('data-status')))

it('shows a session used through another replica, follows its requests live, and moves its clock for every replica', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  checks.watch(page)
  await page.goto(`${replica(0).url.replace(/\/v1$/, '')}/__sandbox/`)
  await signInToDashboard(page, ADMIN_TOKEN)

  const inQa = { 'content-type': 'application/json', 'x-sandbox-session': 'qa' }
  expect(
    (
      await call(1, '/pets', {
        method: 'POST',
        headers: inQa,
        body: JSON.stringify({ name: 'Made through replica 1', categoryId: 1 }),
      })
    ).status,
  ).toBe(201)
  await page.waitForSelector('#sessions-table tbody tr[data-session="qa"] td:nth-child(3):text-is("6")')
  await page.selectOption('#session', 'qa')
  await page.waitForSelector('body[data-session="qa"]')
  expect(await statuses(page)).toEqual(['201'])

  // Live: a request in qa answered by the other replica reaches this board; one in the default session does not.
  expect((await call(1, '/pets/404')).status).toBe(404)
  expect((await call(1, '/pets?limit=1', { headers: inQa })).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  expect(await statuses(page)).toEqual(['200', '201'])

  // The clock moved on this replica's board is qa's on both replicas, and no other session's.
  await page.click('#past-sunset')
  await page.waitForFunction(() => document.getElementById('clock-now')?.textContent?.startsWith('2030-12-06'))
  expect((await call(1, '/pets/1', { headers: inQa })).status).toBe(410)
  expect((await call(0, '/pets/1', { headers: inQa })).status).toBe(410)
  expect((await call(1, '/pets/1')).status).toBe(200)

  // Back on the default session, its list holds its own request only.
  await page.selectOption('#session', 'default')
  await page.waitForSelector('body[data-session="default"]')
  // The shared log takes the last request in a moment after its answer: the board shows it when it is there.
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  expect(await statuses(page)).toEqual(['200', '404'])
  await checks.settled()
  await page.close()
}, 120_000)
