import { mkdir } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../support/launch-chromium.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { usePageChecks } from '../support/use-page-checks.js'
import { signInToDashboard } from '../support/sign-in-to-dashboard.js'

// The pages the Node server serves, in Debian's headless Chromium: the front door, the reference
// (Swagger UI) and the dashboard, with their real Content-Security-Policy.
const TOKEN = 'admin-token-for-browser'
const HOSTILE = '<img src=x onerror=document.body.dataset.xss=1>'
let cli: CliProcess
let browser: Browser
let origin: string
const checks = usePageChecks()

beforeAll(async () => {
  cli = await startCli([
    '--log',
    'off',
    '--admin-token',
    TOKEN,
    '--pets',
    '5',
    '--now',
    '2030-01-01T10:00:05Z',
    '--prefer',
  ])
  origin = cli.url.replace(/\/v1$/, '')
  browser = await launchChromium()
  await mkdir('test-results', { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await cli?.stop()
})

async function open(path: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  checks.watch(page)
  await page.goto(`${origin}${path}`)
  return page
}

/** A request to the API from outside the pages, as a frontend under test would make it. */
async function api(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${cli.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  })
  checks.contract.check(init.method ?? 'GET', `${cli.url}${path}`, response)
  return response
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

it('shows the front door with the base URL and the demo keys, accessibly', async () => {
  const page = await open('/')
  expect(await page.textContent('#base-url')).toBe(cli.url)
  expect(
    await page.$$eval('table.keys tbody tr td:first-child', (cells) => cells.map((cell) => cell.textContent)),
  ).toEqual(['free', 'pro', 'business', 'enterprise'])
  expect(await checks.accessibility(page)).toEqual([])
  await screenshots(page, 'front-door')
  await checks.settled()
  await page.close()
})

it("runs the reference's Try it out against this sandbox with the demo key filled in, hostile names staying text", async () => {
  expect(
    (
      await api('/pets', 'sandbox-enterprise-key', {
        method: 'POST',
        body: JSON.stringify({ name: HOSTILE, categoryId: 1 }),
      })
    ).status,
  ).toBe(201)
  const page = await open('/reference')
  await page.waitForSelector('body[data-ready="true"]')
  expect(await checks.accessibility(page)).toEqual([])
  await screenshots(page, 'reference')

  await page.click('#operations-pets-listPets .opblock-summary-control')
  const tryItOut = page.locator('#operations-pets-listPets button.try-out__btn')
  if ((await tryItOut.textContent())?.includes('Try it out')) await tryItOut.click()
  const sent = page.waitForRequest((request) => request.url().startsWith(`${cli.url}/pets`))
  await page.click('#operations-pets-listPets button.execute')
  const request = await sent
  expect(request.headers().authorization).toBe('Bearer sandbox-free-key')
  const response = await request.response()
  expect(response?.status()).toBe(200)
  await page.waitForSelector('#operations-pets-listPets .live-responses-table tbody .response-col_status')
  expect(
    (await page.textContent('#operations-pets-listPets .live-responses-table tbody .response-col_status'))?.trim(),
  ).toBe('200')
  await page.waitForFunction(
    (name) => document.querySelector('#operations-pets-listPets .live-responses-table')?.textContent?.includes(name),
    HOSTILE,
  )
  expect(await page.$$('img[src="x"]')).toEqual([])
  expect(await page.evaluate(() => document.body.dataset.xss)).toBeUndefined()
  await checks.settled()
  await page.close()
})

it('asks for the admin token, keeps it in sessionStorage only, and refuses a wrong one', async () => {
  const page = await open('/__sandbox/')
  await page.fill('#token', 'not-the-admin-token')
  await page.click('#login button[type="submit"]')
  await page.waitForFunction(() => document.getElementById('login-error')?.textContent !== '')
  expect(await page.textContent('#login-error')).toBe('That token was refused.')
  await signInToDashboard(page, TOKEN)
  expect(page.url()).toBe(`${origin}/__sandbox/`)
  expect(await page.evaluate(() => sessionStorage.getItem('petstore-sandbox-admin-token'))).toBe(TOKEN)
  expect(await page.evaluate(() => document.cookie)).toBe('')
  expect(await page.content()).not.toContain(TOKEN)
  await checks.settled()
  await page.close()
})

it('shows requests as they happen, the key bar moving, a 429 once the quota is spent, 410 past the sunset, faults, and an empty log after reset', async () => {
  const page = await open('/__sandbox/')
  // The board of `start` knows it is no proxy: it never asks for the Proxy panel (a 404 in the console).
  const askedForProxy: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/__sandbox/proxy') askedForProxy.push(request.url())
  })
  await signInToDashboard(page, TOKEN)
  const free = await page.evaluate(() => document.querySelector('#keys-table tbody tr')?.getAttribute('data-key'))
  expect(free).toMatch(/^sand…#[0-9a-f]{4}$/)
  const used = () => page.getAttribute(`progress[aria-label="Used this minute by ${free}"]`, 'value')
  const before = Number(await used())

  // Pushed as it happens: the row is there without a reload.
  expect((await api('/pets?limit=2', 'sandbox-free-key')).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="200"]')
  expect(await page.textContent('#log-table tbody tr:first-child td:nth-child(4)')).toBe('/v1/pets?limit=2')
  // Only a proxy's list says where each answer came from.
  expect(await page.isHidden('#log-source')).toBe(true)
  expect(await page.$$('#log-table tbody tr:first-child td')).toHaveLength(7)
  await page.waitForFunction(
    ([selector, value]) => Number(document.querySelector(selector!)?.getAttribute('value')) > Number(value),
    [`progress[aria-label="Used this minute by ${free}"]`, String(before)] as const,
  )

  // A hostile Authorization and path stay text in the log.
  await fetch(`${cli.url}/pets/'%22%3E%3Cimg%20src=x%3E`, {
    headers: { authorization: 'Bearer <img/src=x/onerror=document.body.dataset.xss=1>' },
  })
  await page.waitForSelector('#log-table tbody tr[data-status="400"], #log-table tbody tr[data-status="401"]')
  expect(await page.$$('img[src="x"]')).toEqual([])

  // Spend the quota from the dashboard, then the next request is a 429 in the log.
  const row = page.locator(`#keys-table tbody tr[data-key="${free}"]`)
  await row.locator('input[type="number"]').fill('0')
  await row.getByRole('button', { name: 'Set remaining' }).click()
  await page.waitForFunction(() => document.getElementById('message')?.textContent?.endsWith('0 left'))
  expect((await api('/pets', 'sandbox-free-key')).status).toBe(429)
  await page.waitForSelector('#log-table tbody tr[data-status="429"]')
  await page.selectOption('#filter-status', '429')
  expect(
    await page.$$eval('#log-table tbody tr', (rows) => rows.map((row) => row.getAttribute('data-status'))),
  ).toEqual(['429'])
  await page.selectOption('#filter-status', '')

  // Change the plan: the next answer says the new limit.
  await row.locator('select[aria-label^="Plan of"]').selectOption('pro')
  await row.getByRole('button', { name: 'Change plan' }).click()
  await page.waitForFunction(() => document.getElementById('message')?.textContent?.includes('is now on pro'))
  expect((await api('/pets?limit=1', 'sandbox-free-key')).headers.get('x-ratelimit-limit')).toBe('300')

  // Past the sunset, getPet is gone.
  await page.click('#past-sunset')
  await page.waitForFunction(() => document.getElementById('clock-now')?.textContent?.startsWith('2030-12-06'))
  expect((await api('/pets/1', 'sandbox-enterprise-key')).status).toBe(410)
  await page.waitForSelector('#log-table tbody tr[data-status="410"]')

  // Faults for one operation: on, seen in the log, then off.
  const faults = page.locator('#faults-table tbody tr', { hasText: 'listPets' })
  await faults.locator('input[aria-label="listPets error rate"]').fill('1')
  await faults.getByRole('button', { name: 'On' }).click()
  await page.waitForFunction(() => document.getElementById('message')?.textContent === 'faults on for listPets')
  expect([500, 503]).toContain((await api('/pets', 'sandbox-enterprise-key')).status)
  await page.waitForSelector('#log-table tbody tr:first-child td:nth-child(7):text-matches("error=50[03]")')
  await page.locator('#faults-table tbody tr', { hasText: 'listPets' }).getByRole('button', { name: 'Off' }).click()
  await page.waitForFunction(() => document.getElementById('message')?.textContent === 'faults off for listPets')
  expect((await api('/pets', 'sandbox-enterprise-key')).status).toBe(200)

  expect(await page.evaluate(() => document.body.dataset.xss)).toBeUndefined()
  // `start` is no proxy: the Proxy panel stays hidden, and was never asked for.
  expect(await page.isHidden('#proxy')).toBe(true)
  expect(askedForProxy).toEqual([])
  expect(await checks.accessibility(page)).toEqual([])
  await screenshots(page, 'dashboard')

  // At 390 px the keys' column headers are gone: each bar carries its caption and figures, in view.
  await page.setViewportSize({ width: 390, height: 900 })
  // Measured in one evaluation: the rows are rebuilt every second.
  const measure = () =>
    page.$$eval('#keys-table tbody tr:first-child .meter', (meters) =>
      meters.map((meter) => {
        const inView = (selector: string) => {
          const part = meter.querySelector(selector)!
          const box = part.getBoundingClientRect()
          return (
            getComputedStyle(part).display !== 'none' &&
            box.width > 0 &&
            box.left >= 0 &&
            box.right <= document.documentElement.clientWidth
          )
        }
        return {
          caption: meter.querySelector('.meter-caption')?.textContent,
          figures: meter.querySelector('.meter-figures')?.textContent,
          inView: inView('.meter-caption') && inView('.meter-figures'),
        }
      }),
    )
  expect(await measure()).toEqual([
    { caption: 'minute', figures: expect.stringMatching(/^\d+ \/ 300$/), inView: true },
    { caption: 'day', figures: expect.stringMatching(/^\d+ \/ 10000$/), inView: true },
  ])
  await page.setViewportSize({ width: 1280, height: 900 })
  // Wide, the column headers say it: the captions are not repeated.
  expect((await measure()).map((meter) => meter.inView)).toEqual([false, false])

  await page.click('#reset')
  await page.waitForFunction(() => document.getElementById('message')?.textContent === 'reset done')
  expect(await page.$$('#log-table tbody tr')).toEqual([])
  await checks.settled()
  await page.close()

  expect(checks.contract.count()).toBeGreaterThan(0)
  expect(checks.admin.count()).toBeGreaterThan(0)
  expect(checks.cspViolations).toEqual([])
})

it('puts one key in a scenario from its row, leaves the others alone, and marks the scenario and a forced answer in the log', async () => {
  const page = await open('/__sandbox/')
  await signInToDashboard(page, TOKEN)
  const pro = await page.evaluate(() => document.querySelectorAll('#keys-table tbody tr')[1]?.getAttribute('data-key'))
  const row = page.locator(`#keys-table tbody tr[data-key="${pro}"]`)
  await row.locator(`select[aria-label="Scenario of ${pro}"]`).selectOption('down')
  await page.waitForFunction((key) => document.getElementById('message')?.textContent === `${key}: scenario down`, pro)
  const down = await api('/pets', 'sandbox-pro-key')
  expect(down.status).toBe(503)
  expect(down.headers.get('retry-after')).not.toBeNull()
  expect((await api('/pets?limit=1', 'sandbox-enterprise-key')).status).toBe(200)
  await page.waitForSelector('#log-table tbody tr[data-status="503"] td:nth-child(7):text-is("scenario=down")')
  // An answer a Prefer: code= forced (D30) is marked like a scenario's.
  expect((await api('/pets?limit=1', 'sandbox-enterprise-key', { headers: { prefer: 'code=500' } })).status).toBe(500)
  await page.waitForSelector('#log-table tbody tr[data-status="500"] td:nth-child(7):text-is("Prefer: code=500")')
  expect(await row.locator('select[aria-label^="Scenario of"]').inputValue()).toBe('down')

  await row.locator('select[aria-label^="Scenario of"]').selectOption('')
  await page.waitForFunction((key) => document.getElementById('message')?.textContent === `${key}: no scenario`, pro)
  expect((await api('/pets', 'sandbox-pro-key')).status).toBe(200)
  expect(await checks.accessibility(page)).toEqual([])
  // Signed out, the board stops polling: no answer is cut short by closing the page.
  await page.click('#sign-out')
  await page.waitForSelector('body[data-live="false"]')
  await page.waitForTimeout(1100)
  await checks.settled()
  await page.close()
})

it('opens an exchange from the request list, masked, filtered by key, and downloads what the filter shows as HAR', async () => {
  const page = await open('/__sandbox/')
  await signInToDashboard(page, TOKEN)
  const created = await api('/pets', 'sandbox-business-key', {
    method: 'POST',
    body: JSON.stringify({ name: 'Shown', categoryId: 3 }),
  })
  expect(created.status).toBe(201)
  await api('/pets?limit=1', 'sandbox-enterprise-key')
  const business = await page.evaluate(() =>
    document.querySelectorAll('#keys-table tbody tr')[2]?.getAttribute('data-key'),
  )
  await page.selectOption('#filter-key', business!)
  await page.waitForSelector('#log-table tbody tr[data-status="201"]')
  expect(await page.$$eval('#log-table tbody tr', (rows) => rows.map((row) => row.getAttribute('data-key')))).toEqual([
    business,
  ])

  await page.click('#log-table tbody tr[data-status="201"] button[data-exchange]')
  await page.waitForSelector('#exchange:not([hidden])')
  const request = (await page.textContent('#exchange-request'))!
  const response = (await page.textContent('#exchange-response'))!
  expect(request).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets\n/)
  expect(request).toMatch(/authorization: Bearer sand…#[0-9a-f]{4}/)
  expect(request).toContain('"name": "Shown"')
  expect(response).toMatch(/^201 Created\n/)
  expect(response).toContain('x-ratelimit-remaining: ')
  expect(`${request}${response}`).not.toContain('sandbox-business-key')
  expect(await checks.accessibility(page)).toEqual([])

  // The download follows the filter: the business key's exchanges alone (?key=), then also of one status.
  const downloaded = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-har')])
    const har = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8')
    for (const key of ['sandbox-business-key', 'sandbox-enterprise-key', TOKEN]) expect(har).not.toContain(key)
    const { log } = JSON.parse(har) as {
      log: { version: string; entries: Array<{ _key: string; response: { status: number } }> }
    }
    expect(log.version).toBe('1.2')
    return { name: download.suggestedFilename(), entries: log.entries }
  }
  const ofKey = await downloaded()
  expect(ofKey.name).toMatch(/^petstore-sandbox-sand-[0-9a-f]{4}\.har$/)
  expect(ofKey.entries.length).toBeGreaterThan(0)
  expect(new Set(ofKey.entries.map((entry) => entry._key))).toEqual(new Set([business]))
  await page.selectOption('#filter-status', '2')
  const ofKeyAndStatus = await downloaded()
  expect(ofKeyAndStatus.entries.map((entry) => entry.response.status)).toEqual(
    ofKey.entries.map((entry) => entry.response.status).filter((status) => status < 300),
  )
  await page.selectOption('#filter-status', '')
  await page.selectOption('#filter-key', '')
  const whole = await downloaded()
  expect(whole.name).toBe('petstore-sandbox.har')
  expect(whole.entries.length).toBeGreaterThan(ofKey.entries.length)

  await page.click('#sign-out')
  await page.waitForSelector('body[data-live="false"]')
  await page.waitForTimeout(1100)
  await checks.settled()
  await page.close()
})
