import { randomBytes } from 'node:crypto'
import { createServer, type AddressInfo } from 'node:net'
import { defineConfig } from '@playwright/test'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

// Workers load this file again, so the port and token chosen by the main process reach them through the environment.
process.env.SANDBOX_PORT ??= String(await freePort())
process.env.SANDBOX_ADMIN_TOKEN ??= `admin-${randomBytes(12).toString('hex')}`
const origin = `http://127.0.0.1:${process.env.SANDBOX_PORT}`

export default defineConfig({
  testDir: 'tests',
  // The tests share one sandbox and reset it before each, so they run one at a time.
  workers: 1,
  forbidOnly: true,
  reporter: 'list',
  use: {
    baseURL: origin,
    // Playwright's own browser builds cannot be downloaded here; Debian's Chromium is used instead.
    launchOptions: { executablePath: '/usr/bin/chromium' },
    // The tests serve the app page themselves, so Chromium cannot see it is on loopback like a dev
    // server and would refuse its calls to the loopback sandbox without this permission.
    permissions: ['local-network-access'],
  },
  webServer: {
    command: `npx petstore-sandbox start --port ${process.env.SANDBOX_PORT} --admin-token ${process.env.SANDBOX_ADMIN_TOKEN} --log off`,
    // Without the token the admin API answers 401, which Playwright takes as the server being up.
    url: `${origin}/__sandbox/health`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
})
