import { defineConfig } from 'vitest/config'

const suite = ['suite/**/*.test.js']

// One install and one vitest run for every environment; each project reports its own count.
export default defineConfig({
  test: {
    // The in-process suite is shared with the Jest consumer, so it uses the runner's globals.
    globals: true,
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: suite } },
      { extends: true, test: { name: 'jsdom', environment: 'jsdom', include: suite } },
      { extends: true, test: { name: 'happy-dom', environment: 'happy-dom', include: suite } },
      { extends: true, test: { name: 'react-jsdom', environment: 'jsdom', include: ['tests/**/*.test.tsx'] } },
      { extends: true, test: { name: 'node-floor', environment: 'node', include: ['tests/node-floor.test.js'] } },
    ],
  },
})
