// What `start` holds per request-log entry for large request bodies:
// `npm run build && node bench/kept-bodies-memory.mjs [requests] [bin]` (200 and this package's
// CLI by default; give another build's bin/petstore-sandbox.js to compare). It starts the CLI with
// `--keep-requests 1000` and sends that many creates of just under 1 MiB (D9's limit: a pet and
// white space) with a demo key, then reads what the process holds after two full GCs, before and
// after. A body's text of 1 MiB or more is an external string: it counts in `external`, not in
// the heap.
import { SANDBOX_BIN, startInspected } from './support.mjs'

const requests = Number(process.argv[2] ?? 200)
const bin = process.argv[3] ?? SANDBOX_BIN
const MiB = 1024 * 1024

const sandbox = await startInspected(['start', '--port', '0', '--log', 'off', '--keep-requests', '1000'], { bin })
try {
  const before = await sandbox.memory()
  const body = JSON.stringify({ name: 'Rex the very good dog', categoryId: 1 }).padEnd(MiB - 16, ' ')
  const statuses = new Set()
  for (let i = 0; i < requests; i++) {
    const response = await fetch(`${sandbox.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json' },
      body,
    })
    await response.arrayBuffer()
    statuses.add(response.status)
  }
  const after = await sandbox.memory()
  const mib = (bytes) => (bytes / MiB).toFixed(1)
  const perEntry = (figure) => Math.round((after[figure] - before[figure]) / requests)
  console.log(
    `${requests} creates of ${mib(body.length)} MiB (${[...statuses].join(', ')}), --keep-requests 1000, after two full GCs: ` +
      `heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)} MiB, external ${mib(before.external)} → ${mib(after.external)} MiB, ` +
      `RSS ${mib(before.rss)} → ${mib(after.rss)} MiB; per kept entry ${perEntry('heapUsed')} B of heap, ${perEntry('external')} B external`,
  )
} finally {
  await sandbox.stop()
}
