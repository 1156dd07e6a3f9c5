// How long each page takes to be usable in headless Chromium, with the sandbox seeded with
// 100000 pets: from navigation start to the page's own "ready" mark (the load event for `/`,
// Swagger UI rendered every operation for /reference, state and log shown for /__sandbox/). Each
// run uses a fresh browser context, so nothing is cached in the browser; the server is warm after
// the first run. For /reference, the same context then loads it twice more: the third visit is
// the "later visit", with the HTTP cache and V8's code cache warm, reported apart from the cold one.
// Run with `npm run build && npx node bench/page-load.mjs [runs]`; prints JSON. BENCHMARKS.md
// records the figures.
import { chromium } from 'playwright-core'
import { freePort, median, SANDBOX_BIN, spawnServer } from './support.mjs'

const runs = Number(process.argv[2] ?? 7)
const TOKEN = 'bench-admin-token'
const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const server = await spawnServer(
  [SANDBOX_BIN, 'start', '--port', String(port), '--pets', '100000', '--admin-token', TOKEN, '--log', 'off'],
  {
    ready: async () => (await fetch(`${origin}/openapi.json`)).status === 200,
    timeoutMs: 120_000,
  },
)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
})

const pages = {
  '/': async (page) => page.waitForFunction(() => document.readyState === 'complete'),
  '/reference': async (page) => page.waitForSelector('body[data-ready="true"]'),
  '/__sandbox/': async (page) => page.waitForSelector('body[data-live="true"] #keys-table tbody tr'),
}
const results = {}
const summary = (times) => ({ medianMs: Math.round(median(times)), maxMs: Math.round(Math.max(...times)), runs })
/** Milliseconds from navigation to the page's ready mark. */
async function visit(page, path, ready) {
  const started = performance.now()
  await page.goto(`${origin}${path}`)
  await ready(page)
  return performance.now() - started
}
try {
  for (const [path, ready] of Object.entries(pages)) {
    const times = []
    const later = []
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext()
      // The dashboard finds its token in the tab's sessionStorage, as after signing in.
      await context.addInitScript((token) => sessionStorage.setItem('petstore-sandbox-admin-token', token), TOKEN)
      const page = await context.newPage()
      times.push(await visit(page, path, ready))
      if (path === '/reference') {
        await visit(page, path, ready)
        later.push(await visit(page, path, ready))
      }
      await context.close()
    }
    results[path] = summary(times)
    if (later.length > 0) results[`${path} (later visit)`] = summary(later)
  }
} finally {
  await browser.close()
  await server.stop()
}
console.log(JSON.stringify({ pets: 100000, pages: results }))
