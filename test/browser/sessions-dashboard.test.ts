import { readFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { launchChromium } from '../support/launch-chromium.js'
import { signInToDashboard } from '../support/sign-in-to-dashboard.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { usePageChecks } from '../support/use-page-checks.js'

// The dashboard with sessions (D34), in Debian's headless Chromium: the picker fed by
// GET /__sandbox/sessions, the list and the live stream following it, each session's state, the
// board's calls acting on the picked session only, and the downloads following the filter.
const TOKEN = 'admin-token-for-sessions-board'
let cli: CliProcess
let browser: Browser
let origin: string
const checks = usePageChecks()

beforeAll(async () => {
  cli = await startCli(['--log', 'off', '--admin-token', TOKEN, '--pets', '5', '--now', '2030-01-01T10:00:05Z'])
  origin = cli.url.replace(/\/v1$/, '')
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await cli?.stop()
})

async function open(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  checks.watch(page)
  await page.goto(`${origin}/__sandbox/`)
  await signInToDashboard(page, TOKEN)
  return page
}

/** A request to the API in `session` (none: the default one), as a test worker would make it. */
async function api(
  path: string,
  { session, key = 'sandbox-enterprise-key', ...init }: RequestInit & { session?: string; key?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  if (session !== undefined) headers['x-sandbox-session'] = session
  const response = await fetch(`${cli.url}${path}`, { ...init, headers })
  checks.contract.check(init.method ?? 'GET', `${cli.url}${path}`, response)
  return response
}

/** Picks `name` in the board's picker and waits until the board shows it. */
async function pick(page: Page, name: string): Promise<void> {
  await page.selectOption('#session', name)
  await page.waitForSelector(`body[data-session="${name}"]`)
}

const statuses = (page: Page) =>
  page.$$eval('#log-table tbody tr', (rows) => rows.map((row) => row.getAttribute('data-status')))

/** Clicks `button` and reads the file the browser downloads. */
async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)])
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') }
}

it("lists the sessions, follows the picked one's requests live, and acts on it alone", async () => {
  const page = await open()
  // With no session named yet, the board is today's: the default session alone, its reset as before.
  expect(await page.isVisible('#sessions')).toBe(true)
  expect(
    await page.$$eval('#sessions-table tbody tr', (rows) => rows.map((row) => row.getAttribute('data-session'))),
  ).toEqual(['default'])
  expect(await page.textContent('#reset')).toBe('Reset the sandbox')
  const defaultResetText = await page.textContent('#reset-what')
  expect(defaultResetText).toMatch(/^Restores 5 pets from seed \d+ \(now 5, next id 6\)/)
  expect(await page.isHidden('#delete-session')).toBe(true)

  // Two workers' sessions come to life on their first request; the default session's list does not show them.
  expect(
    (
      await api('/pets', {
        method: 'POST',
        session: 'alpha',
        body: JSON.stringify({ name: 'Alpha pet', categoryId: 1 }),
      })
    ).status,
  ).toBe(201)
  expect((await api('/pets/404', { session: 'beta' })).status).toBe(404)
  expect((await api('/pets?limit=1')).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  await page.waitForSelector('#sessions-table tbody tr[data-session="alpha"]')
  await page.waitForSelector('#sessions-table tbody tr[data-session="beta"]')
  expect(await statuses(page)).toEqual(['200'])
  const alphaRow = await page.$$eval('#sessions-table tbody tr[data-session="alpha"] td', (cells) =>
    cells.map((cell) => cell.textContent),
  )
  expect(alphaRow.slice(0, 5)).toEqual(['alpha', 'the start-up world', '6', '7', '1'])
  expect(alphaRow[5]).toMatch(/^2030-01-01T10:0/)
  expect(alphaRow[6]).toMatch(/^2030-01-01T10:0/)
  expect(alphaRow[7]).toBe('—')

  // A key bound to alpha (D46) is listed in its row, masked as the log shows keys.
  const bindUrl = `${origin}/__sandbox/sessions/alpha/keys`
  const bound = await fetch(bindUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'pro' }),
  })
  expect(await adminContractViolations('POST', bindUrl, bound.clone())).toEqual([])
  const { key } = (await bound.json()) as { key: string }
  await page.waitForSelector('#sessions-table tbody tr[data-session="alpha"] td:nth-child(8):text-matches("^sbk_")')
  const keysCell = await page.textContent('#sessions-table tbody tr[data-session="alpha"] td:nth-child(8)')
  expect(keysCell).toMatch(/^sbk_…#[0-9a-f]{4} \(pro\)$/)
  expect(await page.content()).not.toContain(key)

  // Picked, the list is alpha's, and its live stream brings alpha's requests, not beta's nor the default's.
  await pick(page, 'alpha')
  expect(await statuses(page)).toEqual(['201'])
  expect(await page.textContent('#reset')).toBe('Reset session alpha')
  expect(await page.textContent('#reset-what')).toMatch(
    /^Returns session alpha to the start-up world \(now 6 pets, next id 7\)/,
  )
  expect(await page.isVisible('#delete-session')).toBe(true)
  expect(await page.getAttribute('#sessions-table tbody tr[data-session="alpha"]', 'class')).toBe('picked')
  expect((await api('/pets/404', { session: 'beta' })).status).toBe(404)
  expect((await api('/pets/404')).status).toBe(404)
  expect((await api('/pets?limit=2', { session: 'alpha' })).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  expect(await statuses(page)).toEqual(['200', '201'])

  // The clock moved from the board is alpha's: past the sunset there, getPet is gone in alpha only.
  await page.click('#past-sunset')
  await page.waitForFunction(() => document.getElementById('clock-now')?.textContent?.startsWith('2030-12-06'))
  expect((await api('/pets/1', { session: 'alpha' })).status).toBe(410)
  expect((await api('/pets/1', { session: 'beta' })).status).toBe(200)
  expect((await api('/pets/1')).status).toBe(200)
  await page.waitForSelector(
    '#sessions-table tbody tr[data-session="alpha"] td:nth-child(6):text-matches("^2030-12-06")',
  )

  // A key's quota and scenario set from its row are alpha's: the default session's answers keep theirs.
  const free = await page.evaluate(() => document.querySelector('#keys-table tbody tr')?.getAttribute('data-key'))
  const row = page.locator(`#keys-table tbody tr[data-key="${free}"]`)
  await row.locator('input[type="number"]').fill('0')
  await row.getByRole('button', { name: 'Set remaining' }).click()
  await page.waitForFunction(() => document.getElementById('message')?.textContent?.endsWith('0 left'))
  expect((await api('/pets', { session: 'alpha', key: 'sandbox-free-key' })).status).toBe(429)
  expect((await api('/pets', { key: 'sandbox-free-key' })).status).toBe(200)
  const pro = await page.evaluate(() => document.querySelectorAll('#keys-table tbody tr')[1]?.getAttribute('data-key'))
  await page
    .locator(`#keys-table tbody tr[data-key="${pro}"] select[aria-label="Scenario of ${pro}"]`)
    .selectOption('down')
  await page.waitForFunction((key) => document.getElementById('message')?.textContent === `${key}: scenario down`, pro)
  expect((await api('/pets', { session: 'alpha', key: 'sandbox-pro-key' })).status).toBe(503)
  expect((await api('/pets', { key: 'sandbox-pro-key' })).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="503"]')
  expect(await page.textContent(`#keys-table tbody tr[data-key="${free}"] .meter-figures`)).toBe('60 / 60')

  // The HAR follows the filter, the session included; the capsule is alpha's world, valid to the admin document.
  const har = await downloaded(page, '#download-har')
  expect(har.name).toBe('petstore-sandbox-alpha.har')
  const entries = (
    JSON.parse(har.text) as { log: { entries: Array<{ _session?: string; response: { status: number } }> } }
  ).log.entries
  expect(new Set(entries.map((entry) => entry._session))).toEqual(new Set(['alpha']))
  expect(entries.map((entry) => entry.response.status)).toEqual([201, 200, 410, 429, 503])
  await page.selectOption('#filter-status', '4')
  expect(
    (JSON.parse((await downloaded(page, '#download-har')).text) as { log: { entries: unknown[] } }).log.entries,
  ).toHaveLength(2)
  await page.selectOption('#filter-status', '')
  const capsule = await downloaded(page, '#download-capsule')
  expect(capsule.name).toBe('petstore-sandbox-alpha.capsule.json')
  const asServed = new Response(capsule.text, {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
  expect(await adminContractViolations('GET', `${origin}/__sandbox/sessions/alpha/capsule`, asServed)).toEqual([])
  expect(JSON.parse(capsule.text)).toMatchObject({
    kind: 'petstore-sandbox/capsule',
    session: 'alpha',
    nextId: 7,
    scenarios: { 'sandbox-pro-key': 'down' },
  })

  expect(await checks.accessibility(page)).toEqual([])
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `test-results/dashboard-sessions-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  // A reset from the board is alpha's: its pet and its requests go, the default session's stay.
  await page.click('#reset')
  await page.waitForFunction(() => document.getElementById('message')?.textContent === 'reset done')
  expect(await statuses(page)).toEqual([])
  await page.waitForSelector('#sessions-table tbody tr[data-session="alpha"] td:nth-child(3):text-is("5")')

  // Back on the default session: its list, its clock and its reset are as they were.
  await pick(page, 'default')
  expect(await statuses(page)).toEqual(['200', '200', '200', '404', '200'])
  expect(await page.textContent(`#keys-table tbody tr[data-key="${free}"] .meter-figures`)).toBe('1 / 60')
  expect(await page.textContent('#clock-now')).toMatch(/^2030-01-01T10:0/)
  expect(await page.textContent('#reset')).toBe('Reset the sandbox')
  expect(await page.textContent('#reset-what')).toBe(defaultResetText)
  expect(await page.isHidden('#delete-session')).toBe(true)
  expect((await downloaded(page, '#download-har')).name).toBe('petstore-sandbox.har')
  await checks.settled()
  await page.close()
}, 120_000)

it('deletes the picked session, and goes back to the default one when the picked session is gone', async () => {
  const page = await open()
  expect((await api('/pets', { session: 'gamma' })).status).toBe(200)
  await page.waitForSelector('#sessions-table tbody tr[data-session="gamma"]')
  // A row's name picks its session too.
  await page.click('#sessions-table tbody tr[data-session="gamma"] button')
  await page.waitForSelector('body[data-session="gamma"]')
  await page.click('#delete-session')
  await page.waitForSelector('body[data-session="default"]')
  expect(await page.textContent('#message')).toBe('session deleted')
  expect(await page.$$('#sessions-table tbody tr[data-session="gamma"]')).toEqual([])

  // Deleted elsewhere while shown: the board does not make it anew by asking for it.
  await pick(page, 'beta')
  const deleted = await fetch(`${origin}/__sandbox/sessions/beta`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  checks.admin.check('DELETE', `${origin}/__sandbox/sessions/beta`, deleted)
  expect(deleted.status).toBe(200)
  await page.waitForSelector('body[data-session="default"]')
  await page.waitForFunction(() => document.getElementById('message')?.textContent?.startsWith('Session beta is gone'))
  const listed = await fetch(`${origin}/__sandbox/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })
  checks.admin.check('GET', `${origin}/__sandbox/sessions`, listed)
  expect(
    ((await listed.json()) as { sessions: Array<{ name: string }> }).sessions.map((summary) => summary.name),
  ).not.toContain('beta')
  // Picked in this tab, the session stays picked across a reload.
  await pick(page, 'alpha')
  await page.reload()
  await page.waitForSelector('body[data-live="true"][data-session="alpha"]')
  expect(await page.inputValue('#session')).toBe('alpha')
  await checks.settled()
  await page.close()
}, 120_000)

it('misses no request answered while it reads a session’s list, and shows each request once', async () => {
  const page = await open()
  await api('/pets', {
    session: 'race',
    method: 'POST',
    body: JSON.stringify({ name: 'Before the list', categoryId: 1 }),
  })
  // The list is read from the sandbox at once and handed to the page only after a request in the
  // session has been answered: that request is in no list the page reads, so only the stream can show it.
  let listed: () => void = () => undefined
  const listRead = new Promise<void>((resolve) => {
    listed = resolve
  })
  let answered: () => void = () => undefined
  const answeredMeanwhile = new Promise<void>((resolve) => {
    answered = resolve
  })
  await page.route('**/__sandbox/requests?*', async (route) => {
    const response = await route.fetch()
    listed()
    await answeredMeanwhile
    await route.fulfill({ response })
  })
  const picked = pick(page, 'race')
  await listRead
  expect((await api('/pets?limit=1', { session: 'race' })).status).toBe(200)
  answered()
  await picked
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  expect(await statuses(page)).toEqual(['200', '201'])
  await page.unroute('**/__sandbox/requests?*')
  await page.close()
})
