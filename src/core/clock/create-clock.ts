import type { Answer, Timing } from '../state/maybe-promise.js'
import type { ClockOffset } from '../state/shared-state.js'
import { ConfigError } from '../errors/config-error.js'

// The span the clock may show (fixtures/admin-openapi.yaml, moveClock; D28 in docs/decisions.md):
// every instant in it is an RFC 3339 date-time with a four-digit year, and no X-RateLimit-Reset in
// it goes below 0.
const EARLIEST = 0
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * The sandbox's one clock (D20): rate-limit windows, bans and the sunset all read it. It follows a
 * time source (by default `Date.now`) shifted by an offset, so a clock that was `set` keeps
 * running forward in real time, as `--now` promises, and tests move it instead of sleeping.
 *
 * The default source is the `Date.now` of the moment the sandbox is made, so fake timers installed
 * later do not move it; `createSandbox({ now: () => Date.now() })` makes it follow them.
 *
 * @example
 * sandbox.clock.set('2030-01-01T10:00:00Z')
 * sandbox.clock.advance(60_000)
 * sandbox.clock.now()   // 10:01:00 UTC as epoch ms, and running on
 */
export interface SandboxClock<Of extends Timing = 'now'> {
  /** The current instant, in epoch milliseconds. */
  now(): number
  /** Moves the clock to `instant`; time keeps running from there. */
  set(instant: Date | number | string): Answer<void, Of>
  /** Moves the clock forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): Answer<void, Of>
  /** Puts the clock back on its time source (real time, unless the sandbox was given `now`). */
  reset(): Answer<void, Of>
}

/** The clock as the sandbox composes it: moves resolve once every process sharing it will see them. */
export interface MovableClock<Of extends Timing = Timing> extends SandboxClock<Of> {
  /** Takes up moves made by other processes sharing the offset; nothing to do for a local one. */
  sync(): void | Promise<void>
  /** How far the clock is from its time source, in ms: 0 when it was never moved (what is in force). */
  offset(): number
}

/** A clock on `source` (default `Date.now`) whose offset lives in `offset`, by default its own. */
export function createClock(source?: () => number): MovableClock<'now'>
export function createClock<Of extends Timing>(source: () => number, offset: ClockOffset<Of>): MovableClock<Of>
export function createClock(source: () => number = Date.now, offset: ClockOffset = localOffset()): MovableClock {
  // Running on from the span's last instant, the clock stays there (D28).
  const now = () => Math.min(LATEST, source() + offset.get())
  return {
    now,
    set(instant) {
      const target = toEpochMs(instant)
      assertInSpan(target)
      return offset.set(target - source())
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError(`clock.advance expects a finite number of ms, got ${ms}`)
      assertInSpan(now() + ms)
      return offset.add(ms)
    },
    reset: () => offset.set(0),
    sync: () => offset.refresh?.(),
    offset: () => offset.get(),
  }
}

/** The offset of a clock of its own: moves are done when they return. */
export function localOffset(): ClockOffset<'now'> {
  let offset = 0
  return {
    get: () => offset,
    set(value) {
      offset = value
    },
    add(ms) {
      offset += ms
    },
  }
}

/** A move beyond the span is the caller's bad input, refused before anything changes. */
function assertInSpan(instant: number): void {
  if (!(instant >= EARLIEST && instant <= LATEST)) {
    throw new ConfigError('the clock must stay between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z')
  }
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i

/**
 * Whether `text` is an RFC 3339 date-time the clock's span holds (D28), as a capsule's `clock` must be.
 *
 * @example
 * isClockInstant('2030-01-01T00:00:00Z') // true
 * isClockInstant('2030')                 // false
 */
export function isClockInstant(text: string): boolean {
  const ms = Date.parse(text)
  return RFC_3339.test(text) && ms >= EARLIEST && ms <= LATEST
}

export function toEpochMs(instant: Date | number | string): number {
  const ms = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new TypeError(`not a valid instant: ${String(instant)}`)
  return ms
}
