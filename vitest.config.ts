import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file builds its own sandbox (and e2e files their own processes); no shared state.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
