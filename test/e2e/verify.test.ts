import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it, vi } from 'vitest'
import { VERIFY_PROMISES } from '../../src/node/verify/promises.js'
import type { VerifyReport } from '../../src/node/verify/report.js'
import { runVerify, type VerifyOptions } from '../../src/node/verify/run-verify.js'
import { createContractChecker } from '../support/contract-checker.js'
import { MUTANTS, type Mutant } from '../support/mutants/mutants.js'
import { startUpstream, UPSTREAM_KEY, type Mutation, type Upstream } from '../support/mutants/start-upstream.js'
import { runCli, startCli } from '../support/start-cli.js'
import { freePort } from '../support/start-redis.js'
import { editResponse } from '../support/mutants/edit-response.js'
import { decidesOtherwise } from '../support/mutants/decides-otherwise.js'

// Each test runs the CLI several times in a row; on a busy machine that takes well over the default.
vi.setConfig({ testTimeout: 120_000 })

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PRISM_CLI = fileURLToPath(import.meta.resolve('@stoplight/prism-cli/dist/index.js'))

// The sandbox's own answers (before any mutation) are held to fixtures/openapi.yaml; the mutants'
// answers break it on purpose, and catching that is what these tests assert.
const contract = createContractChecker()

async function withUpstream<T>(mutation: Mutation | undefined, use: (upstream: Upstream) => Promise<T>): Promise<T> {
  const upstream = await startUpstream(mutation, (request, response) =>
    contract.check(request.method, request.url, response),
  )
  try {
    return await use(upstream)
  } finally {
    await upstream.close()
  }
}

/** verify in-process against `upstream`: waiting out a Retry-After moves the upstream's clock instead of the test's time. */
function verify(upstream: Upstream, options: Partial<VerifyOptions> = {}): Promise<VerifyReport> {
  const announced: string[] = []
  return runVerify({
    baseUrl: upstream.url,
    key: UPSTREAM_KEY,
    writes: true,
    spendQuota: true,
    maxQuotaRequests: 1000,
    announce: (line) => announced.push(line),
    now: upstream.sandbox.clock.now,
    sleep: async (ms) => upstream.sandbox.clock.advance(ms),
    ...options,
  })
}

const outcomes = (report: VerifyReport) =>
  Object.fromEntries(report.promises.map((promise) => [promise.id, promise.outcome]))

it('passes every promise against the sandbox with --spend-quota, none skipped', async () => {
  await withUpstream(undefined, async (upstream) => {
    const report = await verify(upstream)
    expect(report.promises.filter((promise) => promise.outcome !== 'passed')).toEqual([])
    expect(report.promises.map((promise) => promise.id)).toEqual(VERIFY_PROMISES.map((promise) => promise.id))
    expect(report.failed).toBe(0)
    expect(report.skipped).toBe(0)
    // The quota was spent and came back: a 429 was seen, then a success after it.
    expect(upstream.received.length).toBeGreaterThan(60)
    expect(upstream.maxInFlight()).toBe(1)
  })
  expect(contract.count()).toBeGreaterThan(60)
})

it('with --no-writes sends no POST and skips only the promises that need one', async () => {
  await withUpstream(undefined, async (upstream) => {
    const report = await verify(upstream, { writes: false, spendQuota: false })
    expect(upstream.received.filter((request) => request.method !== 'GET')).toEqual([])
    expect(
      report.promises.filter((promise) => promise.outcome === 'skipped').map((promise) => [promise.id, promise.reason]),
    ).toEqual([
      ['invalid-new-pet-refused', 'opted out with --no-writes'],
      ['create-then-get', 'opted out with --no-writes'],
      ['quota-429-and-recovery', "opted out: run with --spend-quota to spend the key's window and check the 429"],
      ['retry-after-seconds', "opted out: run with --spend-quota to spend the key's window and check the 429"],
    ])
    expect(report.failed).toBe(0)
  })
})

it('announces how many requests it sends before sending them, and sends exactly that many', async () => {
  await withUpstream(undefined, async (upstream) => {
    const announced: string[] = []
    let receivedWhenAnnounced = -1
    const report = await verify(upstream, {
      spendQuota: false,
      announce: (line) => {
        announced.push(line)
        receivedWhenAnnounced = upstream.received.length
      },
    })
    expect(receivedWhenAnnounced).toBe(0)
    expect(announced[0]).toMatch(new RegExp(`^Sending ${upstream.received.length} requests to .*, one at a time`))
    expect(report.requests).toBe(upstream.received.length)
  })
})

it('waits out a 429 as its Retry-After says, then sends the request again', async () => {
  let refused = false
  const slowDown: Mutation = async (request, answer) => {
    const response = await answer(request)
    if (refused || new URL(request.url).search !== '?limit=100') return response
    refused = true
    const headers = new Headers(response.headers)
    headers.set('retry-after', '7')
    headers.delete('content-length')
    return new Response(JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }), {
      status: 429,
      headers,
    })
  }
  await withUpstream(slowDown, async (upstream) => {
    const waits: number[] = []
    const announced: string[] = []
    const report = await verify(upstream, {
      spendQuota: false,
      sleep: async (ms) => void waits.push(ms),
      announce: (line) => announced.push(line),
    })
    expect(waits).toEqual([7000])
    expect(announced[1]).toBe('429 for GET /pets?limit=100: waiting 7 s as its Retry-After asks, then sending it again')
    const listings = upstream.received.filter((request) => request.url.endsWith('/v1/pets?limit=100'))
    expect(listings).toHaveLength(2)
    expect(outcomes(report)['limit-default-and-bounds']).toBe('passed')
  })
})

it('does not wait out a Retry-After longer than two minutes: that 429 stands in the report', async () => {
  const banned: Mutation = async (request, answer) => {
    const response = await answer(request)
    if (new URL(request.url).search !== '?limit=100') return response
    const headers = new Headers(response.headers)
    headers.set('retry-after', '900')
    headers.delete('content-length')
    return new Response(JSON.stringify({ code: 'temporarily_banned', message: 'banned', status: 429 }), {
      status: 429,
      headers,
    })
  }
  await withUpstream(banned, async (upstream) => {
    const waits: number[] = []
    const report = await verify(upstream, { spendQuota: false, sleep: async (ms) => void waits.push(ms) })
    expect(waits).toEqual([])
    const listing = report.promises.find((promise) => promise.id === 'limit-default-and-bounds')!
    expect(listing.outcome).toBe('failed')
    expect(listing.failures[0]!.got).toMatch(/^429 \|.*retry-after: 900/)
  })
})

const caught: Array<{ mutant: Mutant; by: string[] }> = []

for (const mutant of MUTANTS) {
  it(`catches the mutant "${mutant.name}" by ${mutant.breaks}`, async () => {
    await withUpstream(mutant.create(), async (upstream) => {
      // Strict: a drift from a decision fails like one from the spec, so every promise is scored alike.
      const report = await verify(upstream, { strict: true })
      const failed = report.promises.filter((promise) => promise.outcome === 'failed')
      caught.push({ mutant, by: failed.map((promise) => promise.id) })
      expect(failed.map((promise) => promise.id)).toContain(mutant.breaks)
      const detail = failed.find((promise) => promise.id === mutant.breaks)!.failures[0]!
      expect(detail.request).toMatch(/^(GET|POST) http:\/\/127\.0\.0\.1:\d+\/v1\/pets/)
      expect(detail.got).toMatch(/^\d{3} /)
      expect(JSON.stringify(report)).not.toContain(UPSTREAM_KEY)
    })
  })
}

it('scores 100% on the mutants (at least 15, every one caught by its promise)', () => {
  const killed = caught.filter(({ mutant, by }) => by.includes(mutant.breaks))
  const score = (100 * killed.length) / MUTANTS.length
  console.log(
    [
      `Mutation score: ${killed.length}/${MUTANTS.length} (${score.toFixed(0)}%)`,
      ...caught.map(({ mutant, by }) => `  ${mutant.name}: caught by ${by.join(', ') || 'nothing'}`),
    ].join('\n'),
  )
  expect(MUTANTS.length).toBeGreaterThanOrEqual(15)
  expect(new Set(MUTANTS.map((mutant) => mutant.name)).size).toBe(MUTANTS.length)
  expect(score).toBe(100)
})

afterAll(() => {
  // Every promise has a mutant that breaks it, so no promise passes merely because it checks nothing.
  const targeted = new Set(MUTANTS.map((mutant) => mutant.breaks))
  expect(VERIFY_PROMISES.filter((promise) => !targeted.has(promise.id)).map((promise) => promise.id)).toEqual([])
})

it('the CLI against the sandbox: every promise passes, nothing to warn, no pattern diagnosed, only the opted-out quota skipped, exit 0', async () => {
  const sandbox = await startCli(['--log', 'off'])
  try {
    const { code, stdout, stderr } = await runCli(['verify', sandbox.url, '--key', 'sandbox-enterprise-key'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Sending \d+ requests to http:\/\/127\.0\.0\.1:\d+\/v1, one at a time/)
    expect(stdout).toContain('Diagnosis:\n  none of the patterns verify looks for')
    expect(stdout).toContain('16 passed, 0 failed, 0 warned, 2 skipped')
    expect(stdout).toContain('- quota-429-and-recovery (seed §8 Behaviour when the limit is exceeded)')
    expect(stdout).toContain('✓ invalid-query-refused (D3)')
    expect(stdout).not.toContain('sandbox-enterprise-key')
  } finally {
    await sandbox.stop()
  }
})

it('the CLI against a mutant: a report naming the broken promise with its source, request, answer and expectation, exit 1', async () => {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'a Pet for an id that does not exist')!
  await withUpstream(mutant.create(), async (upstream) => {
    const terminal = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY])
    expect(terminal.code).toBe(1)
    expect(terminal.stdout).toContain('✗ get-pet-not-found (seed §4.3 Get an animal, §7 Errors)')
    expect(terminal.stdout).toMatch(
      /request: {2}GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/9007199254740991 \(key upst…#[0-9a-f]{4}\)/,
    )
    expect(terminal.stdout).toMatch(/got: {6}200 \| content-type: application\/json/)
    expect(terminal.stdout).toContain('expected: 404 for pet 9007199254740991')
    expect(terminal.stdout).toContain('no state: getPet found a pet for id 9007199254740991, which nobody created')
    expect(terminal.stdout).toContain('15 passed, 1 failed, 0 warned, 2 skipped')
    expect(terminal.stdout + terminal.stderr).not.toContain(UPSTREAM_KEY)

    // Each run spends most of the key's minute: a fresh window per run, or verify would wait one out.
    await upstream.sandbox.reset()
    const json = await runCli(['verify', upstream.url, '--format', 'json'], {
      PETSTORE_SANDBOX_VERIFY_KEY: UPSTREAM_KEY,
    })
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as VerifyReport
    expect(outcomes(report)['get-pet-not-found']).toBe('failed')
    expect(report.promises.find((promise) => promise.id === 'get-pet-not-found')!.source).toEqual({
      kind: 'seed',
      sections: '§4.3 Get an animal, §7 Errors',
    })
    expect(json.stderr).toMatch(/^Sending \d+ requests/)

    await upstream.sandbox.reset()
    const junit = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--format', 'junit', '--no-writes'])
    expect(junit.code).toBe(1)
    expect(junit.stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="petstore-sandbox verify" tests="18" failures="1" skipped="4"/,
    )
    expect(junit.stdout).toContain(
      '<testcase classname="petstore-sandbox.verify" name="get-pet-not-found" time="0">\n      <properties>\n        <property name="source" value="seed §4.3 Get an animal, §7 Errors"/>\n      </properties>\n      <failure message=',
    )
  })
})

it('the HTML report: the diagnosis, each promise with its source, the exchanges that broke it, everything escaped and the key masked', async () => {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'a 401 with an HTML body')!
  await withUpstream(mutant.create(), async (upstream) => {
    const { code, stdout, stderr } = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--format', 'html'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^Sending \d+ requests/)
    expect(stdout).toMatch(/^<!doctype html>\n<html lang="en">/)
    expect(stdout).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    )
    expect(stdout).toContain(
      '<li>validation errors in another format: 401 answered as text/html, not the spec&#39;s Error body (§7)</li>',
    )
    expect(stdout).toMatch(
      /<tr class="failed"><td>✗ failed<\/td><td><code>error-bodies<\/code><\/td><td>seed §2 Error, §7 Errors<\/td>/,
    )
    expect(stdout).toMatch(
      /<tr class="passed"><td>✓ passed<\/td><td><code>invalid-query-refused<\/code><\/td><td>D3<\/td>/,
    )
    // The backend's HTML is shown as text, never as markup of the report.
    expect(stdout).toContain('&#60;html&#62;&#60;body&#62;&#60;h1&#62;401 Unauthorized&#60;/h1&#62;')
    expect(stdout).not.toContain('<h1>401')
    expect(stdout).toMatch(/<p>Key upst…#[0-9a-f]{4}, started /)
    expect(stdout).not.toContain(UPSTREAM_KEY)
  })
})

it('a backend that keeps every seed promise but answers 422 for invalid queries: exit 0 with one D3 warning, exit 1 under --strict', async () => {
  const unprocessable: Mutation = async (request, answer) => {
    const response = await answer(request)
    const listing = request.method === 'GET' && new URL(request.url).pathname === '/v1/pets'
    return listing && response.status === 400
      ? editResponse(response, { status: 422, json: (body) => ({ ...(body as object), status: 422 }) })
      : response
  }
  await withUpstream(unprocessable, async (upstream) => {
    const terminal = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY])
    expect(terminal.code).toBe(0)
    expect(terminal.stdout).toContain('Diagnosis:\n  none of the patterns verify looks for')
    expect(terminal.stdout).toContain('! invalid-query-refused (D3)')
    expect(terminal.stdout).toMatch(/got: {6}422 \| content-type: application\/json/)
    expect(terminal.stdout).toContain(
      '! invalid-query-refused (D3): listPets answers 400 to a limit outside 1..100 or not an integer, and to an unknown status\n    D3: the sandbox answers 400 for limit=0; this backend 422\n',
    )
    expect(terminal.stdout).toContain('expected: 400 for limit=0\n')
    expect(terminal.stdout).toContain('15 passed, 0 failed, 1 warned, 2 skipped')

    await upstream.sandbox.reset()
    const json = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--format', 'json'])
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout) as VerifyReport
    expect(
      report.promises
        .filter((promise) => promise.outcome !== 'passed' && promise.outcome !== 'skipped')
        .map((promise) => [promise.id, promise.outcome]),
    ).toEqual([['invalid-query-refused', 'warned']])
    expect(report.promises.find((promise) => promise.id === 'invalid-query-refused')!.failureCount).toBe(7)

    await upstream.sandbox.reset()
    const junit = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--format', 'junit'])
    expect(junit.code).toBe(0)
    expect(junit.stdout).toContain('tests="18" failures="0" skipped="2"')
    expect(junit.stdout).toMatch(
      /<property name="warning" value="D3: the sandbox answers 400 for limit=0; this backend 422"\/>/,
    )

    await upstream.sandbox.reset()
    const strict = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--strict'])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain('✗ invalid-query-refused (D3)')
    expect(strict.stdout).toContain('15 passed, 1 failed, 0 warned, 2 skipped')
  })
})

it('a backend that keeps every promise of the spec and decides every open point otherwise, a text 429 included: exit 0 with warnings, exit 1 under --strict', async () => {
  await withUpstream(decidesOtherwise(), async (upstream) => {
    const report = await verify(upstream)
    expect(report.failed).toBe(0)
    expect(
      Object.fromEntries(
        report.promises
          .filter((promise) => promise.outcome !== 'passed')
          .map((promise) => [promise.id, promise.outcome]),
      ),
    ).toEqual({
      'sandbox-contract': 'warned',
      'invalid-query-refused': 'warned',
      'ascending-ids': 'warned',
      'deprecation-headers': 'warned',
      'retry-after-seconds': 'warned',
    })

    // The CLI, without --spend-quota (a real Retry-After is a real wait): the 429's promises are skipped.
    await upstream.sandbox.reset()
    const terminal = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY])
    expect(terminal.code).toBe(0)
    expect(terminal.stdout).toContain('12 passed, 0 failed, 4 warned, 2 skipped')
    await upstream.sandbox.reset()
    const strict = await runCli(['verify', upstream.url, '--key', UPSTREAM_KEY, '--strict'])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain('12 passed, 4 failed, 0 warned, 2 skipped')
  })
})

it("Prism's mock of the spec: exit 1, diagnosed as keeping no state, accepting any key and not rate limiting, the sandbox's D3 and D18 as warnings", async () => {
  const prism = await startPrism('fixtures/spec-openapi.yaml')
  try {
    const terminal = await runCli(['verify', prism.url, '--key', UPSTREAM_KEY, '--spend-quota'])
    expect(terminal.code).toBe(1)
    const diagnosis = terminal.stdout.slice(
      terminal.stdout.indexOf('Diagnosis:'),
      terminal.stdout.indexOf("The spec's promises:"),
    )
    expect(diagnosis).toMatch(
      /^ {2}no state: createPet answered a pet named "string" for one sent as "petstore-sandbox verify"/m,
    )
    expect(diagnosis).toMatch(/^ {2}any key accepted: a key nobody issued got 200 for GET \/pets$/m)
    expect(diagnosis).toMatch(
      /^ {2}no rate limiting observed: X-RateLimit-Remaining stayed 0 over \d+ answers, no 429 after the quota was spent$/m,
    )
    // Prism serves the document's paths at its root, not under /v1.
    expect(diagnosis).toMatch(/^ {2}a different base path: \/, where both of the spec's addresses end with \/v1/m)
    expect(terminal.stdout).toContain('! invalid-query-refused (D3)')
    expect(terminal.stdout).toMatch(/got: {6}422 \|/)
    expect(terminal.stdout).toContain('! deprecation-headers (D18)')
    // Prism's int64 ids may be negative: only the sandbox's own contract says ids start at 1.
    expect(terminal.stdout).toContain('! sandbox-contract (D2, D5, D6, D7)')
    expect(terminal.stdout).toMatch(/expected: D7: Response body property 0\.id must be >= 1/)

    const json = await runCli(['verify', prism.url, '--key', UPSTREAM_KEY, '--spend-quota', '--format', 'json'])
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as VerifyReport
    const bySource = (kind: string) => report.promises.filter((promise) => promise.source.kind === kind)
    // Prism answers as the spec's document says, so its answers match the spec's own terms.
    expect(outcomes(report)['matches-contract']).toBe('passed')
    expect(
      bySource('seed')
        .filter((promise) => promise.outcome === 'failed')
        .map((promise) => promise.id),
    ).toEqual(
      expect.arrayContaining([
        'unauthorized-with-wrong-key',
        'create-then-get',
        'get-pet-not-found',
        'remaining-counts-down',
        'quota-429-and-recovery',
      ]),
    )
    expect(bySource('decision').map((promise) => promise.outcome)).not.toContain('failed')
    expect(outcomes(report)).toMatchObject({ 'invalid-query-refused': 'warned', 'deprecation-headers': 'warned' })
  } finally {
    await prism.stop()
  }
}, 90_000)

it('refuses bad input with one line and no stack trace', async () => {
  const badUrl = await runCli(['verify', 'not a url', '--key', 'k'])
  expect(badUrl.code).toBe(1)
  expect(badUrl.stderr).toMatch(
    /^error: command-argument value 'not a url' is invalid for argument 'baseUrl'\. expected an http\(s\) URL/,
  )
  const noKey = await runCli(['verify', 'http://127.0.0.1:9/v1'])
  expect(noKey.code).toBe(1)
  expect(noKey.stderr).toMatch(/^error: required option '--key <key>' not specified/)
  const badFormat = await runCli(['verify', 'http://127.0.0.1:9/v1', '--key', 'k', '--format', 'xml'])
  expect(badFormat.code).toBe(1)
  expect(badFormat.stderr).toMatch(/^error: option '--format <format>' argument 'xml' is invalid/)
  for (const run of [badUrl, noKey, badFormat]) expect(run.stderr).not.toMatch(/\n\s+at /)
})

it('says in one line that nothing answered, and exits 2 rather than report drift', async () => {
  const upstream = await startUpstream()
  const url = upstream.url
  await upstream.close()
  const { code, stderr } = await runCli(['verify', url, '--key', UPSTREAM_KEY])
  expect(code).toBe(2)
  expect(stderr.trim()).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets got no answer \(ECONNREFUSED\)$/)
})

/** `prism mock <document>` on a free port, as a team would run it; resolves once Prism says it listens. */
async function startPrism(document: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [PRISM_CLI, 'mock', '-h', '127.0.0.1', '-p', String(port), document], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start within 60 s:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Prism is listening')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`prism exited with ${code}:\n${output}`)))
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}
