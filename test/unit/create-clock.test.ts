import { expect, it } from 'vitest'
import { createClock } from '../../src/core/clock/create-clock.js'

it('follows its time source until moved', () => {
  let source = 1_000
  const clock = createClock(() => source)
  expect(clock.now()).toBe(1_000)
  source = 1_500
  expect(clock.now()).toBe(1_500)
})

it('keeps running forward from an instant it was set to', () => {
  let source = 1_000
  const clock = createClock(() => source)
  clock.set('2030-12-06T00:00:00Z')
  expect(clock.now()).toBe(Date.UTC(2030, 11, 6))
  source += 2_000
  expect(clock.now()).toBe(Date.UTC(2030, 11, 6) + 2_000)
})

it('advances by milliseconds and accepts a Date or epoch ms for set', () => {
  const clock = createClock(() => 0)
  clock.set(new Date(5_000))
  clock.advance(250)
  expect(clock.now()).toBe(5_250)
  clock.set(10)
  expect(clock.now()).toBe(10)
})

it('refuses instants it cannot read', () => {
  const clock = createClock(() => 0)
  expect(() => clock.set('next tuesday')).toThrow(/not a valid instant/)
  expect(() => clock.advance(Number.NaN)).toThrow(/finite/)
})
