#!/usr/bin/env node
// createPet throughput with and without --state (group-committed, fsync'd journal), measured
// side by side in alternating rounds; prints the median of each and their ratio.
// Run: npm run build && node bench/state-throughput.mjs [rounds=3] [seconds=5] [connections=20]
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const [rounds = 3, seconds = 5, connections = 20] = process.argv.slice(2).map(Number)
const bin = fileURLToPath(new URL('../bin/petstore-sandbox.js', import.meta.url))

// A key whose quota a benchmark never spends (the demo enterprise key allows 5000/min).
const keys = join(mkdtempSync(join(tmpdir(), 'bench-keys-')), 'keys.json')
writeFileSync(
  keys,
  JSON.stringify({
    keys: [{ key: 'bench-key-0000', plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000 }],
  }),
)

function start(args) {
  const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--log', 'off', '--keys', keys, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /Listening on (\S+)/.exec(out)
      if (match) resolve({ url: match[1], child })
    })
  })
}

async function measure(args) {
  const { url, child } = await start(args)
  const result = await autocannon({
    url: `${url}/pets`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization: 'Bearer bench-key-0000', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', categoryId: 1 }),
  })
  child.kill('SIGTERM')
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`)
  return result.requests.average
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const memory = []
const durable = []
for (let round = 0; round < rounds; round++) {
  memory.push(await measure([]))
  durable.push(await measure(['--state', join(mkdtempSync(join(tmpdir(), 'bench-state-')), 'state.jsonl')]))
  console.log(
    `round ${round + 1}: in memory ${memory.at(-1).toFixed(0)} creates/s, --state ${durable.at(-1).toFixed(0)} creates/s`,
  )
}
console.log(
  `median: in memory ${median(memory).toFixed(0)} creates/s, --state ${median(durable).toFixed(0)} creates/s, ratio ${(median(durable) / median(memory)).toFixed(2)}`,
)
