#!/usr/bin/env node
import module from 'node:module'

// Node keeps the compiled code of the CLI's modules for the next start, as npm's and vite's CLIs
// ask it to (BENCHMARKS.md, start-up). It writes them at exit, and once early on for a process that
// is then killed outright; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.()
setTimeout(() => module.flushCompileCache?.(), 1000).unref()
// The floor is checked before the CLI's modules load, so an old Node gets one line, not a trace.
await import('../dist/core/assert-node-floor.js').catch((error) => {
  console.error(error.message)
  process.exit(1)
})
const { main } = await import('../dist/node/cli/main.js')
await main(process.argv)
