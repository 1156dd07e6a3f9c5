import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createKeyedRing } from '../../src/core/request-log/create-keyed-ring.js'
import { oldGenerationGrowth, payload } from '../support/young-collections.js'

type Item = { key: string | undefined; id: number }
const KEYS = [undefined, 'a', 'b', 'c'] as const

it('keeps what an array of the last items would, through generated pushes and removals by key', () => {
  type Step = { push: number } | { remove: number }
  const step = fc.oneof(
    { weight: 4, arbitrary: fc.record({ push: fc.nat(3) }) },
    fc.record({ remove: fc.nat(3) }),
  ) as fc.Arbitrary<Step>
  fc.assert(
    fc.property(fc.nat(8), fc.array(step, { maxLength: 60 }), fc.nat(10), (capacity, steps, limit) => {
      const ring = createKeyedRing<Item, string | undefined>(capacity, (item) => item.key)
      // The oracle: every kept item, oldest first.
      let kept: Item[] = []
      let id = 0
      for (const one of steps) {
        if ('push' in one) {
          const item = { key: KEYS[one.push], id: ++id }
          const out = ring.push(item)
          kept.push(item)
          const expected = kept.length > capacity ? kept.shift() : undefined
          expect(out).toBe(expected)
        } else {
          const key = KEYS[one.remove]
          expect(ring.remove(key)).toEqual(kept.filter((item) => item.key === key))
          kept = kept.filter((item) => item.key !== key)
        }
      }
      expect(ring.last()).toEqual(kept)
      expect(ring.last(limit)).toEqual(limit === 0 ? [] : kept.slice(-limit))
      expect(ring.count()).toBe(kept.length)
      for (const key of KEYS) {
        const ofKey = kept.filter((item) => item.key === key)
        expect(ring.lastOf(key)).toEqual(ofKey)
        expect(ring.lastOf(key, limit)).toEqual(limit === 0 ? [] : ofKey.slice(-limit))
        expect(ring.count(key)).toBe(ofKey.length)
        const newest = ofKey.at(-1)
        expect(ring.find(() => true, key)).toBe(newest)
      }
      const any = kept[0]
      if (any !== undefined) expect(ring.find((item) => item.id === any.id)).toBe(any)
    }),
    { numRuns: 500 },
  )
})

it('looks among a key’s items alone, and forgets them leaving the rest in place', () => {
  const ring = createKeyedRing<Item, string | undefined>(100_000, (item) => item.key)
  for (let id = 0; id < 100_000; id++) ring.push({ key: id % 1000 === 0 ? 'rare' : undefined, id })
  // A search within the key visits its 100 items, not the ring's 100,000.
  const visited: number[] = []
  const find = ring.find((item) => {
    visited.push(item.id)
    return false
  }, 'rare')
  expect(find).toBeUndefined()
  expect(visited).toHaveLength(100)
  expect(ring.remove('rare')).toHaveLength(100)
  expect(ring.count()).toBe(99_900)
  expect(ring.count('rare')).toBe(0)
})

it('lets go of what it pushed out, so a young collection frees it though older links outlived one', () => {
  const ring = createKeyedRing<{ key: undefined; body: string }, undefined>(50, (item) => item.key)
  for (let id = 0; id < 50; id++) ring.push({ key: undefined, body: payload(id) })
  const items = 5000
  // The links kept now move to the old generation first, as in a server under load.
  const grown = oldGenerationGrowth((young) => {
    for (let id = 50; id < 50 + items; id++) {
      ring.push({ key: undefined, body: payload(id) })
      if (id % 500 === 0) young()
    }
  })
  // Each pushed-out item held by the link before it would be kept and moved there: about 10 MB.
  expect(grown).toBeLessThan((items * payload(0).length) / 10)
  expect(ring.count()).toBe(50)
})
