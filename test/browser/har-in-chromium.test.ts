import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../support/launch-chromium.js'
import { useHarSession } from '../support/use-har-session.js'

// The sandbox's HAR opened in Chromium's own DevTools, the frontend bundled in the browser: its
// Network panel's "Import HAR file" button, as a user imports a file, then the requests the panel
// now holds and shows.
const recordSession = useHarSession()
let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
})

interface Header {
  name: string
  value: string
}

/**
 * What the panel's network log holds after the import (the model its list and request views show),
 * and the messages of DevTools' own console, where the panel reports a HAR it cannot load ("Failed
 * to load HAR file with following error: …"). A string, so that the modules are imported by the
 * page, resolved against devtools://devtools/bundled/, rather than rewritten by the test's bundler.
 */
const IMPORTED = `(async () => {
  const logs = await import('./models/logs/logs.js')
  const common = await import('./core/common/common.js')
  const requests = await Promise.all(logs.NetworkLog.NetworkLog.instance().requests().map(async (request) => ({
    url: request.url(),
    method: request.requestMethod,
    status: request.statusCode,
    statusText: request.statusText,
    type: request.resourceType().name(),
    requestHeaders: request.requestHeaders(),
    responseHeaders: request.responseHeaders,
    requestBody: await request.requestFormData(),
    responseBody: (await request.requestContentData()).text,
  })))
  return { requests, console: common.Console.Console.instance().messages().map((message) => message.text) }
})()`

function importedRequests(devtools: Page) {
  return devtools.evaluate(IMPORTED) as Promise<{
    requests: Array<{
      url: string
      method: string
      status: number
      statusText: string
      type: string
      requestHeaders: Header[]
      responseHeaders: Header[]
      requestBody: string | null
      responseBody: string
    }>
    console: string[]
  }>
}

it("opens in Chromium's network panel: every exchange listed, with its method, status, headers and bodies, no key in full", async () => {
  const session = await recordSession()
  const devtools = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await devtools.goto('devtools://devtools/bundled/devtools_app.html')
  await devtools.getByRole('tab', { name: 'Network' }).click()
  const [chooser] = await Promise.all([
    devtools.waitForEvent('filechooser'),
    devtools.getByRole('button', { name: 'Import HAR file' }).click(),
  ])
  await chooser.setFiles(session.file)

  // The list, as the panel renders it: name, status and type columns.
  const rows = devtools.locator('tr.data-grid-data-grid-node')
  await expect.poll(() => rows.count()).toBe(session.exchanges.length)
  const cells = (await rows.allInnerTexts()).map((row) => row.split('\t').slice(0, 3))
  expect(cells).toEqual(
    session.exchanges.map(({ url, status }) => [
      new URL(url).pathname.split('/').pop() + new URL(url).search,
      String(status),
      'fetch',
    ]),
  )
  // Filed under Fetch/XHR, as API calls are, rather than guessed from the JSON type as scripts.
  await devtools.getByText('Fetch/XHR', { exact: true }).click()
  await expect.poll(() => rows.count()).toBe(session.exchanges.length)

  const { requests, console } = await importedRequests(devtools)
  expect(console.filter((text) => /HAR/.test(text))).toEqual([])
  expect(requests.map(({ url, method, status }) => ({ url, method, status }))).toEqual(
    session.exchanges.map(({ url, method, status }) => ({ url, method, status })),
  )
  for (const [index, seen] of session.exchanges.entries()) {
    const request = requests[index]!
    expect(request.statusText).not.toBe('')
    expect(request.requestBody ?? undefined).toBe(seen.requestBody)
    expect(request.responseBody).toBe(seen.responseBody)
    // The answer's headers as the client received them (the transport's own, and Content-Length, aside).
    const headers = Object.fromEntries(request.responseHeaders.map(({ name, value }) => [name, value]))
    for (const name of ['content-type', 'x-ratelimit-remaining', 'www-authenticate'])
      expect(headers[name], name).toBe(seen.responseHeaders[name])
    const authorization = request.requestHeaders.find(({ name }) => name === 'authorization')?.value
    if (authorization !== undefined) expect(authorization).toMatch(/^Bearer sand…#[0-9a-f]{4}$/)
  }
  expect(
    requests.filter(({ requestHeaders }) => requestHeaders.some(({ name }) => name === 'authorization')),
  ).toHaveLength(session.exchanges.length - 1)
  const shown = JSON.stringify(requests)
  for (const secret of session.secrets) expect(shown).not.toContain(secret)

  // The created pet in the panel's Response tab.
  await rows.nth(1).locator('td.name-column').click()
  await devtools.getByRole('tab', { name: 'Response', exact: true }).click()
  await expect.poll(() => devtools.locator('.cm-content').first().innerText()).toContain('"name":"Imported"')
  await devtools.screenshot({ path: 'test-results/har-in-chromium.png' })
  await devtools.close()
})
