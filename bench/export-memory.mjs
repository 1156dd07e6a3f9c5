// The peak memory of the request log's exports and of the capsule holding them: `npm run build &&
// node bench/export-memory.mjs [exchanges] [plain|controls] [bin] [length]` (1000, plain, this
// package's CLI and 60000 by default; give another build's bin/petstore-sandbox.js to compare). It
// starts the CLI with `--keep-requests 1000` and sends that many creates of `length` characters,
// kept whole for the HAR up to 64 KiB (65536): `plain`, a pet and white space; `controls`, control
// characters (refused, kept all the same), which a HAR writes six characters each. Then for each
// export it collects garbage, resets the process's peak resident memory (Linux:
// `/proc/<pid>/clear_refs`), downloads the export and reads how far the peak rose.
import { writeFileSync } from 'node:fs'
import { SANDBOX_BIN, startInspected } from './support.mjs'

const exchanges = Number(process.argv[2] ?? 1000)
const kind = process.argv[3] ?? 'plain'
const bin = process.argv[4] ?? SANDBOX_BIN
const length = Number(process.argv[5] ?? 60_000)
const TOKEN = 'export-memory-admin-token'
const MB = 1_000_000

const sandbox = await startInspected(
  ['start', '--port', '0', '--log', 'off', '--keep-requests', '1000', '--admin-token', TOKEN],
  { bin },
)
try {
  const body =
    kind === 'controls' ? '\u0001'.repeat(length) : JSON.stringify({ name: 'Rex', categoryId: 1 }).padEnd(length, ' ')
  for (let i = 0; i < exchanges; i++) {
    const response = await fetch(`${sandbox.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json' },
      body,
    })
    await response.arrayBuffer()
  }
  const admin = `${sandbox.url.replace(/\/v1$/, '')}/__sandbox`
  for (const path of ['/requests.har', '/requests', '/sessions/default/capsule']) {
    const settled = await sandbox.memory()
    writeFileSync(`/proc/${sandbox.pid}/clear_refs`, '5')
    const response = await fetch(`${admin}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const bytes = (await response.arrayBuffer()).byteLength
    const peak = sandbox.peakRss()
    console.log(
      `GET ${path} of ${exchanges} ${kind} exchanges: ${response.status}, ${(bytes / MB).toFixed(1)} MB; peak RSS ${(settled.rss / MB).toFixed(1)} → ${(peak / MB).toFixed(1)} MB (+${((peak - settled.rss) / MB).toFixed(1)} MB)`,
    )
  }
} finally {
  await sandbox.stop()
}
