import type { Page } from 'playwright-core'

/** Signs in on an open dashboard page with `token`, as a person does, and waits for its live stream. */
export async function signInToDashboard(page: Page, token: string): Promise<void> {
  await page.fill('#token', token)
  await page.click('#login button[type="submit"]')
  await page.waitForSelector('body[data-live="true"]')
}
