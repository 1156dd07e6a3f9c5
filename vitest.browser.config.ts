import { defineConfig } from 'vitest/config'

/** Real-browser checks: Debian's headless Chromium driven by playwright-core. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
