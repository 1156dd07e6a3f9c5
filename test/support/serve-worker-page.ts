import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { launchChromium } from './launch-chromium.js'

/** A page of test/browser/<name>/ built by Vite with the demo's worker script, open in Chromium once it says it is ready. */
export interface WorkerPage {
  page: Page
  close(): Promise<void>
}

/** Builds and serves test/browser/<name>/ and opens it; `npm run test:browser` writes the worker script it serves. */
export async function serveWorkerPage(name: string): Promise<WorkerPage> {
  const root = fileURLToPath(new URL(`../browser/${name}/`, import.meta.url))
  const config = {
    root,
    publicDir: fileURLToPath(new URL('../../examples/browser-demo/public', import.meta.url)),
    configFile: false as const,
    logLevel: 'error' as const,
    build: {
      outDir: fileURLToPath(new URL(`../../test-results/${name}-dist`, import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
    },
  }
  await build(config)
  const server: PreviewServer = await preview({ ...config, preview: { host: '127.0.0.1', port: 0, strictPort: false } })
  const browser: Browser = await launchChromium()
  const page = await browser.newPage()
  await page.goto(server.resolvedUrls!.local[0]!)
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached', timeout: 30_000 })
  return {
    page,
    async close() {
      await browser.close()
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
    },
  }
}
