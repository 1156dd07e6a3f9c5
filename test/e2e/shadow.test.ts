import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { ShadowReport } from '../../src/core/admin/admin-controls.js'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { decidesOtherwise } from '../support/mutants/decides-otherwise.js'
import { MUTANTS } from '../support/mutants/mutants.js'
import { type Mutation, startUpstream, UPSTREAM_KEY, type Upstream } from '../support/mutants/start-upstream.js'
import { type CliProcess, startCli } from '../support/start-cli.js'

// proxy --shadow (D42): a world learned from the upstream answers every exchange again, and the
// drift report says where the two answers differ.
const TOKEN = 'admin-token-for-the-shadow'
const adminContract = createAdminContractChecker()
const running: Array<{ close?: () => Promise<void>; stop?: () => Promise<unknown> }> = []
afterEach(async () => {
  for (const item of running.splice(0)) await (item.close?.() ?? item.stop?.())
})

interface Shadowed {
  proxy: CliProcess
  upstream: Upstream
  /** fetch below /v1 through the proxy, with the upstream's key unless `key` says otherwise. */
  call(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>
  /** The report once every exchange sent is compared or dropped. */
  report(sent?: number): Promise<ShadowReport>
}

async function shadowed(mutation?: Mutation, extra: string[] = []): Promise<Shadowed> {
  const contract = createContractChecker()
  const upstream = await startUpstream(mutation, (request, response) =>
    contract.check(request.method, request.url, response),
  )
  running.push(upstream)
  const proxy = await startCli(
    ['--upstream', upstream.url, '--shadow', '--admin-token', TOKEN, '--log', 'off', ...extra],
    {},
    'proxy',
  )
  running.push(proxy)
  const admin = createAdminCaller(() => proxy.url.replace(/\/v1$/, ''), TOKEN, adminContract)
  let sent = 0
  return {
    proxy,
    upstream,
    async call(path, init = {}) {
      const { key = UPSTREAM_KEY, ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== null) headers.set('authorization', `Bearer ${key}`)
      sent++
      return fetch(`${proxy.url}${path}`, { ...rest, headers })
    },
    async report(expected = sent) {
      for (;;) {
        const response = await admin('/shadow')
        expect(response.status).toBe(200)
        const report = (await response.json()) as ShadowReport
        if (report.exchanges >= expected && report.compared + report.dropped === report.exchanges) return report
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}

/** Mixed traffic: filtered listings, creates, gets of created, seeded and absent ids, 400s and 401s. */
async function mixedTraffic({ call }: Shadowed): Promise<void> {
  const json = { 'content-type': 'application/json' }
  const created: number[] = []
  await call('/pets')
  for (const name of ['Shadowed Rex', '  Padded  ', 'Shadowed Mia']) {
    const response = await call('/pets', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name, categoryId: 3, status: 'pending' }),
    })
    if (response.status === 201) created.push((await response.json()).id)
  }
  await call('/pets?status=sold&limit=5')
  await call('/pets?status=pending&limit=100')
  await call('/pets?limit=3')
  for (const id of [...created, 2, 17, 50, 999_999]) await call(`/pets/${id}`)
  await call('/pets?limit=0')
  await call('/pets?status=adopted')
  await call('/pets', { method: 'POST', headers: json, body: JSON.stringify({ categoryId: 1 }) })
  await call('/pets', { method: 'POST', headers: json, body: '{"name": "Broken"' })
  await call('/pets', { key: null })
  await call('/pets/3', { key: 'not-a-key-of-the-upstream' })
  await call('/pets?limit=100')
  await call('/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Last one', categoryId: 9 }) })
  await call('/pets?limit=100')
  await call('/pets')
}

it('agrees with a second sandbox on every compared exchange of mixed traffic: 0 differences', async () => {
  const shadow = await shadowed()
  await mixedTraffic(shadow)
  const report = await shadow.report()
  expect(report.exchanges).toBe(24)
  expect(report.dropped).toBe(0)
  expect(report.compared).toBe(24)
  expect(report.differences, JSON.stringify(report.differences, null, 2)).toEqual([])
  expect(report.unlisted).toBe(0)
}, 60_000)

/** The mutants the shadow is held to: each with the difference that names it. */
const CAUGHT: Array<{ mutant: string; operation: string; aspect: string; kind: 'spec' | 'decision' | 'behaviour' }> = [
  { mutant: 'a created pet getPet cannot find', operation: 'getPet', aspect: 'status', kind: 'behaviour' },
  {
    mutant: 'X-RateLimit-Remaining that never goes down',
    operation: 'listPets',
    aspect: 'header:X-RateLimit-Remaining',
    kind: 'spec',
  },
  { mutant: 'the status filter ignored', operation: 'listPets', aspect: 'body:ids', kind: 'spec' },
  { mutant: 'a default limit of 10', operation: 'listPets', aspect: 'body:ids', kind: 'behaviour' },
  { mutant: 'a wrong Sunset', operation: 'getPet', aspect: 'header:Sunset', kind: 'decision' },
  { mutant: 'no X-RateLimit-Remaining', operation: 'listPets', aspect: 'header:X-RateLimit-Remaining', kind: 'spec' },
  { mutant: '200 where the spec says 201', operation: 'createPet', aspect: 'status', kind: 'spec' },
  {
    mutant: 'a Pet with a property the contract does not have',
    operation: 'listPets',
    aspect: 'body:field:owner',
    kind: 'decision',
  },
]

it.each(CAUGHT)(
  'names a mutant’s drift by operation and aspect: $mutant',
  async ({ mutant, operation, aspect, kind }) => {
    const found = MUTANTS.find((candidate) => candidate.name === mutant)!
    const shadow = await shadowed(found.create())
    await mixedTraffic(shadow)
    const report = await shadow.report()
    const group = report.differences.find(
      (difference) => difference.operation === operation && difference.aspect === aspect,
    )
    expect(group, JSON.stringify(report.differences, null, 2)).toBeDefined()
    expect(group!.kind).toBe(kind)
    expect(group!.count).toBeGreaterThanOrEqual(1)
    expect(group!.example.key).not.toContain(UPSTREAM_KEY)
    expect(JSON.stringify(report)).not.toContain(UPSTREAM_KEY)
  },
  60_000,
)

it('reads a backend that keeps the spec and decides its open points otherwise as decisions, with their ids, none behaviour', async () => {
  const shadow = await shadowed(decidesOtherwise())
  await mixedTraffic(shadow)
  // The key's minute spent, for the 429s: a text body and an HTTP-date Retry-After.
  for (let index = 0; index < 45; index++) await shadow.call('/pets?limit=1')
  const report = await shadow.report()
  const kinds = report.differences.map(({ operation, aspect, kind, decision }) =>
    `${operation} ${aspect} ${kind} ${decision ?? ''}`.trim(),
  )
  expect(
    report.differences.filter((difference) => difference.kind === 'behaviour'),
    kinds.join('\n'),
  ).toEqual([])
  expect(kinds).toEqual(
    expect.arrayContaining([
      'listPets body:order decision D8',
      'listPets status decision D3',
      'listPets body:code decision D2',
      'getPet header:Deprecation decision D18',
      'listPets body:type decision D2',
      'listPets header:Retry-After decision D14',
    ]),
  )
}, 60_000)

it('writes the report at exit with --shadow-report, as JSON and as HTML beside it', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-shadow-')), 'drift.json')
  const found = MUTANTS.find((candidate) => candidate.name === 'a created pet getPet cannot find')!
  const shadow = await shadowed(found.create(), ['--shadow-report', file])
  await mixedTraffic(shadow)
  const shown = await shadow.report()
  await shadow.proxy.stop()
  const written = JSON.parse(readFileSync(file, 'utf8')) as ShadowReport
  expect(written).toEqual(shown)
  expect(existsSync(`${file}.html`)).toBe(true)
  const page = readFileSync(`${file}.html`, 'utf8')
  expect(page).toContain('<td><code>getPet</code></td><td><code>status</code></td>')
  expect(page).not.toContain(UPSTREAM_KEY)
}, 60_000)
