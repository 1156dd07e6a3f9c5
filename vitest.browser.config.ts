import { defineConfig } from 'vitest/config'
import { planTiers } from './test/support/tiers.js'

// Firefox's check is left out where firefox-esr is missing, with one line at the end saying so; CI
// requires it (test/support/tiers.ts).
const tiers = planTiers('npm run test:browser')

/** Real-browser checks: Debian's headless Chromium driven by playwright-core, and Firefox through Marionette. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...tiers.exclude],
    reporters: ['default', tiers.reporter],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
