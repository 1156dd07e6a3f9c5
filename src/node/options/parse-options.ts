import { InvalidArgumentError } from 'commander'
import { MAX_PETS, MAX_SESSIONS } from '../../core/sandbox/resolve-options.js'

/** Returns a parser of whole numbers from `min` to `max`. */
export function integerIn(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`)
    }
    return Number(value)
  }
}

export const parsePort = integerIn(0, 65_535)
export const parsePets = integerIn(0, MAX_PETS)
export const parseSeed = integerIn(0, Number.MAX_SAFE_INTEGER)
export const parseMaxSessions = integerIn(1, MAX_SESSIONS)

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Parses a duration: whole ms, `s`, `m`, `h` or `d`, up to a year. */
export function parseDuration(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim())
  const ms = match === null ? Number.NaN : Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms']!
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 365 * DURATION_UNITS.d!) {
    throw new InvalidArgumentError('expected a duration such as 90s, 30m, 2h or whole ms, from 1 ms to 365d.')
  }
  return ms
}

export function parsePositiveNumber(value: string): number {
  const number = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || number <= 0) throw new InvalidArgumentError('expected a positive number.')
  return number
}

/** Parses `--now`, an ISO 8601 instant with a time zone. */
export function parseInstant(value: string): number {
  const ms = Date.parse(value)
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || !Number.isFinite(ms)) {
    throw new InvalidArgumentError('expected an ISO 8601 instant such as 2030-12-06T00:00:00Z.')
  }
  return ms
}

/** Parses `--cors-origin`: an origin or `*`. */
export function parseOrigin(value: string, previous: string[] | undefined): string[] {
  if (value !== '*') {
    let origin: string
    try {
      origin = new URL(value).origin
    } catch {
      throw new InvalidArgumentError('expected an origin such as http://localhost:5173.')
    }
    if (origin === 'null' || origin !== value.replace(/\/$/, ''))
      throw new InvalidArgumentError('expected an origin such as http://localhost:5173 (scheme, host and port only).')
    value = origin
  }
  return [...(previous ?? []), value]
}

export interface ScenarioFlag {
  key: string
  name: string
}

/** Parses `--scenario <key>=<name>[,…]`; pairs keep their order, so an error names one by position. */
export function parseScenario(value: string, previous: ScenarioFlag[] | undefined): ScenarioFlag[] {
  const next = [...(previous ?? [])]
  for (const pair of value.split(',')) {
    const at = pair.lastIndexOf('=')
    const key = pair.slice(0, at).trim()
    const name = pair.slice(at + 1).trim()
    if (at < 1 || key === '' || name === '')
      throw new InvalidArgumentError('expected <key>=<scenario>, e.g. sandbox-free-key=down.')
    next.push({ key, name })
  }
  return next
}

/** Parses a base URL (http or https). */
export function parseBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError(
      `expected an http(s) URL such as https://staging.animal-store.example/v1, got ${JSON.stringify(value)}.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(`expected an http or https URL, got ${url.protocol}.`)
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError(
      'expected a base URL without query, fragment or credentials (the key goes in --key).',
    )
  }
  return url.href.replace(/\/+$/, '')
}
