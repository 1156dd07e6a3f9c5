import { createRouter, type Router } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import { resolveFaults } from '../faults/fault-config.js'
import type { Pet } from '../store/pet.js'
import { petsOfAnswer } from './pets-of-answer.js'
import { CAPSULE_KIND, CAPSULE_VERSION, type Capsule } from '../sessions/capsule.js'
import { DEFAULT_SESSION } from '../sessions/session-name.js'

/** Reads what learning needs of a HAR 1.2 recording. */
export interface RecordedHar {
  log: { entries: ReadonlyArray<object> }
}

/** Tells a recording (a `log`, no `kind`) from a capsule. */
export function isRecordedHar(value: unknown): value is RecordedHar {
  return typeof value === 'object' && value !== null && 'log' in value && !('kind' in value)
}

/** Learns a capsule from a recording (D41). */
export function learnCapsule(value: unknown, where: string, made: number): Capsule {
  const entries = entriesOf(value, where)
  const router = createRouter(openapiDocument)
  const pets = new Map<number, Pet>()
  let clock: number | undefined
  let usable = 0
  for (const [index, entry] of entries.entries()) {
    const at = `${where}.log.entries[${index}]`
    const read = readEntry(entry, at)
    clock = read.started
    const operationId = operationOf(router, read.method, read.url)
    if (operationId === undefined || read.body === undefined) continue
    let body: unknown
    try {
      body = JSON.parse(read.body)
    } catch {
      continue
    }
    const shown = petsOfAnswer(operationId, read.status, body)
    if (shown.pets.length === 0 && !(operationId === 'listPets' && read.status === 200 && Array.isArray(body))) continue
    usable++
    for (const pet of shown.pets) pets.set(pet.id, pet)
  }
  if (usable === 0) {
    throw new ConfigError(
      `${where} has no entry to learn from: none of its ${entries.length} entries is a listPets 200, createPet 201 ` +
        "or getPet 200 with its JSON body (a HAR recorded with bodies: Playwright's recordHar with content 'embed', " +
        'devtools\' "Save all as HAR with content")',
    )
  }
  const sorted = [...pets.values()].sort((a, b) => a.id - b.id)
  return {
    kind: CAPSULE_KIND,
    version: CAPSULE_VERSION,
    session: DEFAULT_SESSION,
    made: new Date(made).toISOString(),
    clock: new Date(clock!).toISOString(),
    seed: 1,
    pets: sorted,
    nextId: (sorted.at(-1)?.id ?? 0) + 1,
    faults: resolveFaults({}, 1, []),
    scenarios: {},
    quotas: {},
    keys: [],
  }
}

/** Returns a recording's entries. */
export function entriesOf(value: unknown, where: string): readonly unknown[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(`${where} must be a HAR document (an object with log.entries)`)
  const log = (value as { log?: unknown }).log
  if (typeof log !== 'object' || log === null || Array.isArray(log))
    throw new ConfigError(`${where}.log must be an object: ${where} is not HAR`)
  const entries = (log as { entries?: unknown }).entries
  if (!Array.isArray(entries)) throw new ConfigError(`${where}.log.entries must be an array: ${where} is not HAR`)
  return entries
}

interface ReadEntry {
  method: string
  url: string
  started: number
  /** Is in ms, NaN when there is none. */
  time: number
  status: number
  /** Is decoded. */
  body: string | undefined
}

/** Reads a HAR 1.2 entry, or throws a ConfigError naming the field at `at`. */
export function readEntry(entry: unknown, at: string): ReadEntry {
  const object = (value: unknown, name: string): Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new ConfigError(`${at}${name} must be an object`)
    return value as Record<string, unknown>
  }
  const read = object(entry, '')
  const request = object(read.request, '.request')
  const response = object(read.response, '.response')
  const content = object(response.content, '.response.content')
  if (typeof request.method !== 'string') throw new ConfigError(`${at}.request.method must be a string`)
  if (typeof request.url !== 'string') throw new ConfigError(`${at}.request.url must be a string`)
  if (typeof response.status !== 'number') throw new ConfigError(`${at}.response.status must be a number`)
  const started = typeof read.startedDateTime === 'string' ? Date.parse(read.startedDateTime) : Number.NaN
  if (!Number.isFinite(started)) throw new ConfigError(`${at}.startedDateTime must be an ISO 8601 instant`)
  let body: string | undefined
  if (typeof content.text === 'string') {
    body = content.encoding === 'base64' ? decodeBase64(content.text) : content.text
  }
  const time = typeof read.time === 'number' && read.time >= 0 ? read.time : Number.NaN
  return { method: request.method.toUpperCase(), url: request.url, started, time, status: response.status, body }
}

function decodeBase64(text: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)))
  } catch {
    return undefined
  }
}

/** Finds the operation a recorded URL names, below any prefix. */
export function operationOf(router: Router, method: string, url: string): string | undefined {
  let pathname: string
  try {
    pathname = new URL(url).pathname
  } catch {
    return undefined
  }
  const segments = pathname.split('/').slice(1)
  for (let skip = 0; skip < segments.length; skip++) {
    const match = router.match(method, `/${segments.slice(skip).join('/')}`)
    if (match.kind === 'operation') return match.operation.operationId
  }
  return undefined
}
