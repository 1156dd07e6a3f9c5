import { randomUUID } from 'node:crypto'
import { createMasker } from '../../core/auth/create-masker.js'
import type { ShadowReport } from '../../core/admin/admin-controls.js'
import { createRouter } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import { petsOfAnswer } from '../../core/learning/pets-of-answer.js'
import { createSandbox } from '../../core/sandbox/create-sandbox.js'
import type { Pet } from '../../core/store/pet.js'
import { type ExchangeChecker, parseJsonBody } from '../verify/create-exchange-checker.js'
import { VERIFY_PROMISES } from '../verify/promises.js'
import { type HandedOver, toExchange } from './check-answer.js'
import { type ComparedAnswer, compareAnswers, type Difference, type KeySequences } from './compare-answers.js'
import { createShadowReport, type FoundDifference, MAX_SHOWN_CHARS } from './shadow-report.js'

/** Bounds the exchanges waiting for the shadow; past it one is dropped and counted. */
export const MAX_SHADOW_QUEUE = 256
export const MAX_SHADOW_QUEUED_BYTES = 16 * 1024 * 1024

const MAX_SEQUENCES = 10_000

/** Maps a difference's aspects to the promises that explain them (D42). */
const EXPLAINS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [
    /^status$/,
    [
      'invalid-query-refused',
      'invalid-new-pet-refused',
      'unauthorized-without-key',
      'unauthorized-with-wrong-key',
      'create-then-get',
      'get-pet-not-found',
      'matches-contract',
    ],
  ],
  [/^body:(code|type)$/, ['sandbox-contract', 'error-bodies', 'matches-contract']],
  [/^body:order$/, ['ascending-ids']],
  // Which pets a page holds follows from the order.
  [/^body:ids$/, ['status-filter', 'limit-default-and-bounds', 'ascending-ids']],
  [/^body:field:/, ['sandbox-contract', 'matches-contract', 'create-then-get']],
  [/^header:X-RateLimit-/, ['rate-limit-headers', 'reset-in-future']],
  [/^header:Retry-After$/, ['retry-after-seconds', 'quota-429-and-recovery']],
  [/^header:(Deprecation|Sunset|Link)$/, ['deprecation-headers']],
]
const SOURCES = new Map(VERIFY_PROMISES.map(({ id, source }) => [id, source]))

export interface Shadow {
  offer(handedOver: HandedOver): void
  report(): ShadowReport
  idle(): Promise<void>
}

/** Creates the shadow of `proxy --shadow` (D42). */
export function createShadow({ checker }: { checker: ExchangeChecker }): Shadow {
  const router = createRouter(openapiDocument)
  const report = createShadowReport()
  let clock = 0
  // No client knows this key: every key served is one the upstream accepted.
  const world = createSandbox({
    pets: 0,
    keys: [{ key: `shadow-${randomUUID()}`, plan: 'free' }],
    now: () => clock,
    requestLogSize: 0,
    sessions: { max: 1 },
  })
  const known = new Set<string>()
  const sequences = new Map<string, KeySequences>()
  // Assigned before the upstream's were known: hidden from listings.
  const placeholders = new Set<number>()
  const queue: HandedOver[] = []
  let queuedBytes = 0
  let running: Promise<void> | undefined
  // A page of one pet cannot show the order (D8).
  let orderedOtherwise = false

  const pump = async (): Promise<void> => {
    while (queue.length > 0) {
      const next = queue.shift()!
      queuedBytes -= next.answer.body.length
      try {
        await compare(next)
      } catch {
        report.dropped()
      }
    }
    running = undefined
  }

  async function compare(handedOver: HandedOver): Promise<void> {
    const { method, apiPath, target, answer, presented } = handedOver
    const match = router.match(method, apiPath)
    const operationId = match.kind === 'operation' ? match.operation.operationId : undefined
    const exchange = toExchange(handedOver)
    const upstream: ComparedAnswer = {
      status: answer.status,
      headers: exchange.headers,
      body: exchange.body,
      json: isJson(exchange.headers['content-type']),
    }
    const date = Date.parse(exchange.headers.date ?? '')
    clock = Math.max(clock, Number.isFinite(date) ? date : handedOver.receivedAt)
    await adoptKey(presented, upstream)

    const shown = operationId === undefined ? [] : petsOfAnswer(operationId, answer.status, exchange.body).pets
    const created = operationId === 'createPet' ? shown[0] : undefined
    for (const pet of shown)
      if (pet !== created && (placeholders.has(pet.id) || world.pets.get(pet.id) === undefined)) await learn(pet)

    const headers = new Headers()
    if (handedOver.authorization !== undefined) headers.set('authorization', handedOver.authorization)
    if (handedOver.contentType !== undefined) headers.set('content-type', handedOver.contentType)
    const hasBody = method !== 'GET' && method !== 'HEAD' && handedOver.sent !== undefined && handedOver.sent !== ''
    const response = await world.fetch(`http://shadow.invalid/v1${apiPath}${target.search}`, {
      method,
      headers,
      ...(hasBody ? { body: handedOver.sent } : {}),
    })
    const text = await response.text()
    const sandboxHeaders: Record<string, string> = {}
    for (const [name, value] of response.headers) sandboxHeaders[name] = value
    const sandbox: ComparedAnswer = {
      status: response.status,
      headers: sandboxHeaders,
      body: parseJsonBody(text),
      json: isJson(sandboxHeaders['content-type']),
    }

    const differences = compareAnswers(operationId, target.searchParams, upstream, sandbox, sequencesOf(presented), {
      ignoreId: created !== undefined,
      hiddenIds: placeholders,
    })
    report.compared()
    if (differences.length > 0) {
      const findings = await checker.check(exchange)
      if (findings.some(({ promise }) => promise === 'ascending-ids')) orderedOtherwise = true
      const masker = createMasker({ keys: presented === undefined ? [] : [presented] })
      const show = (value: string) => masker.text(value).slice(0, MAX_SHOWN_CHARS)
      for (const difference of differences) {
        const found: FoundDifference = {
          operation: operationId ?? `${method} ${apiPath}`,
          aspect: difference.aspect,
          ...classify(difference, findings, orderedOtherwise),
          upstream: show(difference.upstream),
          sandbox: show(difference.sandbox),
          example: {
            time: new Date(handedOver.receivedAt).toISOString(),
            method,
            path: masker.url(handedOver.shownTarget).slice(0, MAX_SHOWN_CHARS),
            ...(handedOver.authorization === undefined ? {} : { key: masker.credential(handedOver.authorization) }),
            upstreamStatus: answer.status,
            sandboxStatus: response.status,
          },
        }
        report.differed(found)
      }
    }

    // The upstream is the authority.
    const made = parseJsonBody(text) as Pet | undefined
    if (created !== undefined && response.status === 201 && made?.id !== undefined && made.id !== created.id)
      placeholders.add(made.id)
    for (const pet of shown) {
      placeholders.delete(pet.id)
      await learn(pet)
    }
  }

  async function learn(pet: Pet): Promise<void> {
    placeholders.delete(pet.id)
    await world.pets.put(pet)
  }

  /** Learns a key the upstream accepted, with the limit and remaining it showed. */
  async function adoptKey(presented: string | undefined, upstream: ComparedAnswer): Promise<void> {
    if (presented === undefined || known.has(presented) || upstream.status === 401) return
    const limit = Number(upstream.headers['x-ratelimit-limit'])
    const remaining = Number(upstream.headers['x-ratelimit-remaining'])
    known.add(presented)
    try {
      await world.apiKeys.add({
        key: presented,
        plan: 'enterprise',
        perMinute: Number.isSafeInteger(limit) && limit > 0 ? limit : 10_000,
        perDay: 1_000_000_000,
      })
      if (Number.isSafeInteger(remaining) && remaining >= 0)
        world.quota.set(presented, { remaining: remaining + (upstream.status === 429 ? 0 : 1) })
    } catch {
      // Not a key by D17's syntax: the shadow answers 401.
    }
  }

  function sequencesOf(presented: string | undefined): KeySequences | undefined {
    if (presented === undefined) return undefined
    let found = sequences.get(presented)
    if (found === undefined) {
      if (sequences.size >= MAX_SEQUENCES) sequences.delete(sequences.keys().next().value!)
      found = {}
      sequences.set(presented, found)
    }
    return found
  }

  return {
    offer(handedOver) {
      report.handed()
      const bytes = handedOver.answer.body.length
      const replayable =
        handedOver.decoded === undefined && (handedOver.sent !== undefined || handedOver.method === 'GET')
      if (!replayable || queue.length >= MAX_SHADOW_QUEUE || queuedBytes + bytes > MAX_SHADOW_QUEUED_BYTES) {
        report.dropped()
        return
      }
      queue.push(handedOver)
      queuedBytes += bytes
      running ??= pump()
    },
    report: report.snapshot,
    idle: async () => {
      while (running !== undefined) await running
    },
  }
}

/** Says what explains a difference: a spec promise, a decision, or nothing (`behaviour`). */
function classify(
  difference: Difference,
  findings: ReadonlyArray<{ promise: string; expected: string }>,
  orderedOtherwise: boolean,
): Pick<FoundDifference, 'kind' | 'decision'> {
  const relevant = EXPLAINS.find(([aspect]) => aspect.test(difference.aspect))?.[1] ?? []
  const explaining = [
    ...(difference.promise === undefined ? [] : [{ promise: difference.promise, expected: '' }]),
    ...findings.filter(({ promise }) => relevant.includes(promise)),
  ]
  if (explaining.some(({ promise }) => SOURCES.get(promise)?.kind === 'seed')) return { kind: 'spec' }
  for (const { promise, expected } of explaining) {
    const source = SOURCES.get(promise)
    if (source?.kind !== 'decision') continue
    // Findings name their decision first (`D2: …`).
    const named = /^(D\d+):/.exec(expected)?.[1]
    return { kind: 'decision', decision: named ?? source.decisions[0]! }
  }
  if (difference.aspect === 'body:ids' && orderedOtherwise) return { kind: 'decision', decision: 'D8' }
  return { kind: 'behaviour' }
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '')
}
