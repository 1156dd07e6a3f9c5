// What the shadow of `proxy --shadow` holds (run with --expose-gc; BENCHMARKS.md, "The shadow"):
// `npm run build && node_modules/.bin/node --expose-gc bench/shadow-memory.mjs [exchanges] [distinct]`
// (100000 and 1000 by default). The shadow is handed that many getPet exchanges of one key, each
// upstream answer a pet (ids 1 to 5000) carrying a field the contract lacks, one of `distinct` names,
// so every exchange after the first showing of its pet differs, in `distinct` ways. The V8 heap in use after full GCs, once the
// shadow has learned the 5000 pets (at a tenth of the exchanges) and at the end, and the size of the
// report as JSON. Prints one JSON line.
import { createShadow } from '../dist/node/proxy/create-shadow.js'
import { createExchangeChecker } from '../dist/node/verify/create-exchange-checker.js'

const exchanges = Number(process.argv[2] ?? 100_000)
const distinct = Number(process.argv[3] ?? 1000)
const KEY = 'shadow-bench-key-0001'
const heap = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}

const checker = createExchangeChecker('/v1')
await checker.warm()
const shadow = createShadow({ checker })
const start = Date.now()
// The upstream's count in each minute window: Remaining goes down by one a request, as the sandbox's does.
const used = new Map()
/** The exchange of the i-th get, as the forwarding handler hands it over. */
function exchange(i) {
  const id = (i % 5000) + 1
  const at = start + i * 10
  const window = Math.floor(at / 60_000)
  used.set(window, (used.get(window) ?? 0) + 1)
  const body = Buffer.from(
    JSON.stringify({ id, name: `Pet ${id}`, categoryId: 1, status: 'available', [`field${i % distinct}`]: 'x' }),
  )
  const target = new URL(`http://upstream.test/v1/pets/${id}`)
  return {
    method: 'GET',
    target,
    apiPath: `/pets/${id}`,
    shownTarget: `/v1/pets/${id}`,
    authorization: `Bearer ${KEY}`,
    contentType: undefined,
    presented: KEY,
    sent: '',
    answer: {
      status: 200,
      rawHeaders: [
        'content-type',
        'application/json',
        'date',
        new Date(at).toUTCString(),
        'x-ratelimit-limit',
        '1000000',
        'x-ratelimit-remaining',
        String(1_000_000 - used.get(window)),
        'x-ratelimit-reset',
        String((window + 1) * 60),
      ],
      body,
    },
    decoded: undefined,
    receivedAt: at,
  }
}

const readings = {}
const began = performance.now()
for (let i = 0; i < exchanges; i++) {
  shadow.offer(exchange(i))
  // The handler hands exchanges over as clients send them; the bench waits so that none is dropped.
  if (i % 64 === 63) await shadow.idle()
  if (i + 1 === Math.floor(exchanges / 10)) {
    await shadow.idle()
    readings.tenth = await heap()
  }
}
await shadow.idle()
readings.end = await heap()
const report = shadow.report()
console.log(
  JSON.stringify({
    exchanges: report.exchanges,
    compared: report.compared,
    dropped: report.dropped,
    groups: report.differences.length,
    unlisted: report.unlisted,
    reportBytes: JSON.stringify(report).length,
    heapAtTenthMB: +(readings.tenth / 1e6).toFixed(1),
    heapAtEndMB: +(readings.end / 1e6).toFixed(1),
    seconds: +((performance.now() - began) / 1000).toFixed(1),
  }),
)
