import type { Answer, Timing } from '../state/maybe-promise.js'
import type { ClockOffset } from '../state/shared-state.js'
import { ConfigError } from '../errors/config-error.js'

// Bounds the clock to four-digit years (D28).
const EARLIEST = 0
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * Shifts a time source by an offset, so a `set` clock keeps running (D20; fake timers: docs/in-process.md).
 *
 * @example
 * sandbox.clock.set('2030-01-01T10:00:00Z')
 */
export interface SandboxClock<Of extends Timing = 'now'> {
  now(): number
  set(instant: Date | number | string): Answer<void, Of>
  advance(ms: number): Answer<void, Of>
  reset(): Answer<void, Of>
}

/** Resolves a move once every process sees it. */
export interface MovableClock<Of extends Timing = Timing> extends SandboxClock<Of> {
  /** Takes up other processes' moves. */
  sync(): void | Promise<void>
  offset(): number
}

export function createClock(source?: () => number): MovableClock<'now'>
export function createClock<Of extends Timing>(source: () => number, offset: ClockOffset<Of>): MovableClock<Of>
export function createClock(source: () => number = Date.now, offset: ClockOffset = localOffset()): MovableClock {
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

function assertInSpan(instant: number): void {
  if (!(instant >= EARLIEST && instant <= LATEST)) {
    throw new ConfigError('the clock must stay between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z')
  }
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i

/** Tells whether `text` is an RFC 3339 date-time in the span. */
export function isClockInstant(text: string): boolean {
  const ms = Date.parse(text)
  return RFC_3339.test(text) && ms >= EARLIEST && ms <= LATEST
}

export function toEpochMs(instant: Date | number | string): number {
  const ms = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new TypeError(`not a valid instant: ${String(instant)}`)
  return ms
}
