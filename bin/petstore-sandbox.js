#!/usr/bin/env node
// The floor is checked before the CLI's modules load, so an old Node gets one line, not a trace.
await import('../dist/core/assert-node-floor.js').catch((error) => {
  console.error(error.message)
  process.exit(1)
})
const { main } = await import('../dist/node/cli/main.js')
await main(process.argv)
