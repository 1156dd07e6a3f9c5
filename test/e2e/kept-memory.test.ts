import { afterAll, beforeAll, expect, it } from 'vitest'
import { inspectMemory, inspectorAddress } from '../support/inspect-memory.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// What the request log holds, read in the CLI process itself after full GCs through its
// inspector: a bound on memory, never on time. Figures in BENCHMARKS.md ("Memory of the request log").
const MiB = 1024 * 1024
const { call, cli } = useCliSandbox(['--keep-requests', '1000', '--admin-token', 'kept-memory-admin-token'], { NODE_OPTIONS: '--inspect=127.0.0.1:0' })
let inspector: Awaited<ReturnType<typeof inspectMemory>>

beforeAll(async () => {
  inspector = await inspectMemory(inspectorAddress(cli().output())!)
})
afterAll(() => inspector?.close())

const create = (body: string) => call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body })

it('keeps no request body over the HAR limit: 30 creates of 1 MiB leave the process holding what it held before', async () => {
  const before = await inspector.afterGc()
  // A pet and white space: valid, just under D9's 1 MiB. Its text is an external string, so a
  // kept copy would show in `external`, not in the heap.
  const body = JSON.stringify({ name: 'Rex the very good dog', categoryId: 1 }).padEnd(MiB - 16, ' ')
  for (let i = 0; i < 30; i++) {
    const response = await create(body)
    expect(response.status).toBe(201)
    await response.arrayBuffer()
  }
  const after = await inspector.afterGc()
  // 30 MiB if each entry kept its body; the entries themselves take a few KB each.
  expect(after.external - before.external).toBeLessThan(3 * MiB)
  expect(after.heapUsed - before.heapUsed).toBeLessThan(3 * MiB)
  expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(3 * MiB)
}, 60_000)
