import { defineConfig } from 'vitest/config'

// The README's vitest snippet (tests/, written from the README by the consumer matrix), then the checks of its other snippets.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'checks/**/*.test.js'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
})
