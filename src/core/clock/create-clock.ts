import type { Answer, Timing } from '../state/maybe-promise.js'
import type { ClockOffset } from '../state/shared-state.js'
import { ConfigError } from '../errors/config-error.js'

// Bounds the clock to four-digit years from the epoch (D28).
const EARLIEST = 0
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * The sandbox's clock (D20): a time source shifted by an offset, so a clock `set` keeps running (fake timers:
 * docs/in-process.md).
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
  /** Moves the clock by `ms` milliseconds, back when negative. */
  advance(ms: number): Answer<void, Of>
  /** Puts the clock back on its time source (real time, unless the sandbox was given `now`). */
  reset(): Answer<void, Of>
}

/** The clock as the sandbox composes it: a move resolves once every process sharing it sees it. */
export interface MovableClock<Of extends Timing = Timing> extends SandboxClock<Of> {
  /** Takes up moves made by other processes sharing the offset; nothing to do for a local one. */
  sync(): void | Promise<void>
  /** Returns how far the clock is from its source in ms, 0 when never moved. */
  offset(): number
}

/** Creates a clock on `source` (default `Date.now`) whose offset lives in `offset`, by default its own. */
export function createClock(source?: () => number): MovableClock<'now'>
export function createClock<Of extends Timing>(source: () => number, offset: ClockOffset<Of>): MovableClock<Of>
export function createClock(source: () => number = Date.now, offset: ClockOffset = localOffset()): MovableClock {
  // Stops at the span's last instant (D28).
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

/** Creates an in-memory offset: moves are done when they return. */
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

/** Refuses a move beyond the span before anything changes. */
function assertInSpan(instant: number): void {
  if (!(instant >= EARLIEST && instant <= LATEST)) {
    throw new ConfigError('the clock must stay between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z')
  }
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i

/** Tells whether `text` is an RFC 3339 date-time in the clock's span (D28). */
export function isClockInstant(text: string): boolean {
  const ms = Date.parse(text)
  return RFC_3339.test(text) && ms >= EARLIEST && ms <= LATEST
}

export function toEpochMs(instant: Date | number | string): number {
  const ms = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new TypeError(`not a valid instant: ${String(instant)}`)
  return ms
}
