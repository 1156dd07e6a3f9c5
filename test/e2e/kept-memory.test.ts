import { readFile, writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Har } from '../../src/index.js'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { inspectMemory, inspectorAddress } from '../support/inspect-memory.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// What the request log holds, read in the CLI process itself after full GCs through its
// inspector: a bound on memory, never on time. Figures in BENCHMARKS.md ("Memory of the request log").
const MiB = 1024 * 1024
const TOKEN = 'kept-memory-admin-token'
const { call, cli } = useCliSandbox(['--keep-requests', '1000', '--admin-token', TOKEN], {
  NODE_OPTIONS: '--inspect=127.0.0.1:0',
})
let inspector: Awaited<ReturnType<typeof inspectMemory>>

beforeAll(async () => {
  inspector = await inspectMemory(inspectorAddress(cli().output())!)
})
afterAll(() => inspector?.close())

const create = (body: string) =>
  call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body })

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

const adminContract = createAdminContractChecker()
async function admin(path: string): Promise<Response> {
  const target = `${cli().url.replace(/\/v1$/, '')}/__sandbox${path}`
  const response = await fetch(target, { headers: { authorization: `Bearer ${TOKEN}` } })
  adminContract.check('GET', target, response)
  return response
}

/** The process's peak resident memory (VmHWM) from now on: Linux resets it on writing 5 to clear_refs. */
async function peakFromNow(pid: number): Promise<() => Promise<number>> {
  await writeFile(`/proc/${pid}/clear_refs`, '5')
  return async () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) * 1024
}

it('writes the HAR a piece at a time: exporting a 100 MB HAR raises the peak by a fraction of it', async () => {
  // Control characters, which a HAR writes as six (\u0001): the body is refused (400), and kept
  // for the HAR all the same, so 300 small bodies make a large document.
  const body = '\u0001'.repeat(60_000)
  for (let i = 0; i < 300; i++) {
    const response = await create(body)
    expect(response.status).toBe(400)
    await response.arrayBuffer()
  }
  const settled = await inspector.afterGc()
  const peak = await peakFromNow(cli().child.pid!)
  const har = await (await admin('/requests.har')).text()
  const raised = (await peak()) - settled.rss
  expect(har.length).toBeGreaterThan(100_000_000)
  expect((JSON.parse(har) as Har).log.entries.filter((entry) => entry.request.postData?.text === body)).toHaveLength(
    300,
  )
  // Built whole, the document and its bytes were each about its size at once; streamed, the rise is
  // a piece's worth plus what the collector has not yet taken back on a busy machine (0.55 seen).
  expect(raised).toBeLessThan(har.length * 0.75)
}, 120_000)

it('writes a capsule a piece at a time: the capsule holding that 100 MB HAR raises the peak by a fraction of it', async () => {
  const settled = await inspector.afterGc()
  const peak = await peakFromNow(cli().child.pid!)
  const text = await (await admin('/sessions/default/capsule')).text()
  const raised = (await peak()) - settled.rss
  expect(text.length).toBeGreaterThan(100_000_000)
  const capsule = JSON.parse(text) as { kind: string; har: Har }
  expect(capsule.kind).toBe('petstore-sandbox/capsule')
  expect(
    capsule.har.log.entries.filter((entry) => entry.request.postData?.text === '\u0001'.repeat(60_000)),
  ).toHaveLength(300)
  // One JSON.stringify of the capsule held its text and its bytes at once, each about its size.
  expect(raised).toBeLessThan(text.length / 3)
}, 120_000)

it('gives the last exchanges and entries a ?limit= asks for, oldest first', async () => {
  const listed = (await (await admin('/requests?limit=3')).json()) as { requests: Array<{ id: string }> }
  const har = (await (await admin('/requests.har?limit=3')).json()) as Har
  expect(listed.requests).toHaveLength(3)
  expect(har.log.entries.map((entry) => entry._id)).toEqual(listed.requests.map((entry) => entry.id))
  const all = (await (await admin('/requests')).json()) as { requests: Array<{ id: string }> }
  expect(all.requests.slice(-3)).toEqual(listed.requests)
  expect(((await (await admin('/requests.har?limit=0')).json()) as Har).log.entries).toEqual([])
  const refused = await admin('/requests.har?limit=-1')
  expect(refused.status).toBe(400)
})
