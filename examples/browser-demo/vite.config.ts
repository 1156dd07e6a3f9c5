import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The browser demo: `npm run demo` builds it and serves the build (vite preview), the same build
// `npm run test:browser` drives in Chromium. `public/` holds only mockServiceWorker.js, written by
// `msw init` (npm run demo:worker) so it always matches the installed msw; it is not committed.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: 'public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One chunk of about 1 MB (faker's English data, @msw/data, Ajv): fine for a demo.
    chunkSizeWarningLimit: 1200,
  },
  preview: { host: '127.0.0.1', port: 5173 },
})
