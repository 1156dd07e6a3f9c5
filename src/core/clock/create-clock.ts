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
export interface SandboxClock {
  /** The current instant, in epoch milliseconds. */
  now(): number
  /** Moves the clock to `instant`; time keeps running from there. */
  set(instant: Date | number | string): void
  /** Moves the clock forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void
  /** Puts the clock back on its time source (real time, unless the sandbox was given `now`). */
  reset(): void
}

export function createClock(source: () => number = Date.now): SandboxClock {
  let offset = 0
  return {
    now: () => source() + offset,
    set(instant) {
      const target = toEpochMs(instant)
      offset = target - source()
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new TypeError(`clock.advance expects a finite number of ms, got ${ms}`)
      offset += ms
    },
    reset() {
      offset = 0
    },
  }
}

export function toEpochMs(instant: Date | number | string): number {
  const ms = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new TypeError(`not a valid instant: ${String(instant)}`)
  return ms
}
