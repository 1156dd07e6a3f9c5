import { defineConfig } from 'vitest/config'
import { planTiers } from './test/support/tiers.js'

// Tiers that need a program from outside npm (redis-server) are left out where it is missing, with
// one line at the end saying so; CI requires them (test/support/tiers.ts).
const tiers = planTiers('npm test')

export default defineConfig({
  test: {
    // Browser checks need Chromium and run with `npm run test:browser` (vitest.browser.config.ts).
    include: [
      'test/unit/**/*.test.ts',
      'test/in-process/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', ...tiers.exclude],
    reporters: ['default', tiers.reporter],
    // Each file builds its own sandbox (and e2e files their own processes); no shared state.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
