import { mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { launchChromium } from '../support/launch-chromium.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

let sandbox: CliProcess
let page: Server
let pageOrigin: string
let browser: Browser
const contract = createContractChecker()

// A frontend on its own origin: it calls the sandbox on another port with a bearer key and shows
// what a real app would read from the response headers.
const html = (api: string) => `<!doctype html>
<html><body>
<h1>Pet 1</h1>
<dl>
  <dt>name</dt><dd id="name">…</dd>
  <dt>X-RateLimit-Remaining</dt><dd id="remaining">…</dd>
  <dt>Deprecation</dt><dd id="deprecation">…</dd>
  <dt>Sunset</dt><dd id="sunset">…</dd>
</dl>
<script type="module">
  const response = await fetch('${api}/pets/1', { headers: { Authorization: 'Bearer sandbox-pro-key' } })
  const pet = await response.json()
  document.getElementById('name').textContent = pet.name
  document.getElementById('remaining').textContent = response.headers.get('X-RateLimit-Remaining')
  document.getElementById('deprecation').textContent = response.headers.get('Deprecation')
  document.getElementById('sunset').textContent = response.headers.get('Sunset')
  document.body.dataset.done = 'yes'
</script>
</body></html>`

beforeAll(async () => {
  sandbox = await startCli(['--log', 'off'])
  page = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(html(sandbox.url))
  })
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  page?.close()
  await sandbox?.stop()
})

it('lets a page on another origin read X-RateLimit-Remaining and Deprecation from JavaScript', async () => {
  const tab = await browser.newPage()
  // What the browser received from the sandbox is held to the contract like any other response.
  const seen: Array<Promise<void>> = []
  tab.on('response', (response) => {
    if (!response.url().startsWith(sandbox.url)) return
    seen.push(
      (async () => {
        const body = await response.body().catch(() => Buffer.alloc(0))
        const status = response.status()
        const replay = new Response(status === 204 || body.byteLength === 0 ? null : new Uint8Array(body), {
          status,
          headers: await response.allHeaders(),
        })
        contract.check(response.request().method(), response.url(), replay)
      })(),
    )
  })
  await tab.goto(`${pageOrigin}/`)
  await tab.waitForSelector('body[data-done="yes"]', { timeout: 15_000 })

  expect(new URL(pageOrigin).port).not.toBe(new URL(sandbox.url).port)
  expect(await tab.textContent('#remaining')).toBe('299')
  expect(await tab.textContent('#deprecation')).toBe(`@${Date.UTC(2025, 11, 5) / 1000}`)
  expect(await tab.textContent('#sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(await tab.textContent('#name')).not.toBe('…')

  await Promise.all(seen)
  expect(contract.count()).toBeGreaterThan(0)

  await mkdir('test-results', { recursive: true })
  await tab.screenshot({ path: 'test-results/cross-origin.png' })
  await tab.close()
})
