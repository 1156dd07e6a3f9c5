import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../support/launch-chromium.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { usePageChecks } from '../support/use-page-checks.js'

// A page records its traffic through the sandbox; the sandbox's HAR then replays it with
// Playwright's routeFromHAR while the sandbox is stopped.
const TOKEN = 'admin-token-for-har-replay'
let cli: CliProcess
let browser: Browser
const checks = usePageChecks()

beforeAll(async () => {
  cli = await startCli(['--log', 'off', '--admin-token', TOKEN, '--pets', '4', '--scenario', 'sandbox-free-key=empty'])
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await cli?.stop()
})

/** What the page's app does: lists, creates, reads one, and a key in a scenario lists nothing. */
function traffic(page: Page) {
  return page.evaluate(async () => {
    const call = async (path: string, key: string, init: RequestInit = {}) => {
      const response = await fetch(`/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      })
      return {
        status: response.status,
        remaining: response.headers.get('x-ratelimit-remaining'),
        body: await response.json(),
      }
    }
    return [
      await call('/pets?limit=3', 'sandbox-pro-key'),
      await call('/pets', 'sandbox-pro-key', {
        method: 'POST',
        body: JSON.stringify({ name: 'Recorded', categoryId: 2 }),
      }),
      await call('/pets/5', 'sandbox-pro-key'),
      await call('/pets', 'sandbox-free-key'),
    ]
  })
}

it('replays the HAR of a recorded session with routeFromHAR, the sandbox stopped', async () => {
  const origin = cli.url.replace(/\/v1$/, '')
  const recording = await browser.newPage()
  checks.watch(recording)
  await recording.goto(`${origin}/`)
  const recorded = await traffic(recording)
  expect(recorded.map((exchange) => exchange.status)).toEqual([200, 201, 200, 200])
  expect(recorded[3]!.body).toEqual([])
  await checks.settled()
  await recording.close()

  const response = await fetch(`${origin}/__sandbox/requests.har`, { headers: { authorization: `Bearer ${TOKEN}` } })
  checks.admin.check('GET', `${origin}/__sandbox/requests.har`, response)
  const har = await response.text()
  for (const secret of ['sandbox-pro-key', 'sandbox-free-key', TOKEN]) expect(har).not.toContain(secret)
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-har-replay-')), 'session.har')
  await writeFile(file, har)

  await cli.stop()
  expect(
    await fetch(`${origin}/healthz`).then(
      () => 'up',
      () => 'down',
    ),
  ).toBe('down')

  const context = await browser.newContext()
  await context.routeFromHAR(file, { url: /\/v1\//, notFound: 'abort' })
  // The page itself is no exchange of the API: served here, at the same origin as before.
  await context.route(`${origin}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>replay</title>' }),
  )
  const replaying = await context.newPage()
  await replaying.goto(`${origin}/`)
  expect(await traffic(replaying)).toEqual(recorded)
  // A request the HAR does not hold is not answered by anyone.
  expect(
    await replaying.evaluate(() =>
      fetch('/v1/pets?limit=99').then(
        () => 'answered',
        () => 'aborted',
      ),
    ),
  ).toBe('aborted')
  await context.close()
})

/** What a page's app does with one key: lists three pets. */
function listWith(page: Page, key: string) {
  return page.evaluate(async (key) => {
    const response = await fetch('/v1/pets?limit=3', { headers: { authorization: `Bearer ${key}` } })
    return { status: response.status, body: await response.json() }
  }, key)
}

it("replays a per-key HAR of each of two keys, each getting its own answers, where the whole HAR gives both the first key's", async () => {
  // A sandbox of its own: the free key down, the pro key served.
  const own = await startCli([
    '--log',
    'off',
    '--admin-token',
    TOKEN,
    '--pets',
    '4',
    '--scenario',
    'sandbox-free-key=down',
  ])
  try {
    await replaysEachKey(own)
  } finally {
    await own.stop()
  }
})

async function replaysEachKey(own: CliProcess): Promise<void> {
  const origin = own.url.replace(/\/v1$/, '')
  const recording = await browser.newPage()
  checks.watch(recording)
  await recording.goto(`${origin}/`)
  const free = await listWith(recording, 'sandbox-free-key')
  const pro = await listWith(recording, 'sandbox-pro-key')
  expect([free.status, pro.status]).toEqual([503, 200])
  await checks.settled()
  await recording.close()

  const dir = await mkdtemp(join(tmpdir(), 'petstore-har-per-key-'))
  const saved = async (query: string) => {
    const response = await fetch(`${origin}/__sandbox/requests.har${query}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    checks.admin.check('GET', response.url, response)
    const text = await response.text()
    for (const secret of ['sandbox-pro-key', 'sandbox-free-key', TOKEN]) expect(text).not.toContain(secret)
    const file = join(dir, `${query.replace(/\W+/g, '-') || 'all'}.har`)
    await writeFile(file, text)
    return file
  }
  const files = {
    all: await saved(''),
    free: await saved('?key=sandbox-free-key'),
    pro: await saved('?key=sandbox-pro-key'),
  }
  await own.stop()

  const replay = async (file: string, key: string) => {
    const context = await browser.newContext()
    await context.routeFromHAR(file, { url: /\/v1\//, notFound: 'abort' })
    await context.route(`${origin}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>replay</title>' }),
    )
    const page = await context.newPage()
    await page.goto(`${origin}/`)
    const answer = await listWith(page, key)
    await context.close()
    return answer
  }
  // routeFromHAR matches by method and URL; the Authorization it would tell keys by is masked.
  expect(await replay(files.all, 'sandbox-pro-key')).toEqual(free)
  // The export of each key holds its exchanges alone: each key replays its own answers.
  expect(await replay(files.free, 'sandbox-free-key')).toEqual(free)
  expect(await replay(files.pro, 'sandbox-pro-key')).toEqual(pro)
}
