import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createInFlight } from '../../src/node/server/in-flight.js'
import { oldGenerationGrowth, payload } from '../support/young-collections.js'

it('holds what a Set would, through generated additions and removals, a removal twice included', () => {
  const step = fc.oneof(fc.record({ add: fc.constant(true) }), fc.record({ remove: fc.nat(20) }))
  fc.assert(
    fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
      const inFlight = createInFlight<number>()
      const oracle = new Set<number>()
      const removers: Array<() => void> = []
      for (const one of steps) {
        if ('add' in one) {
          const item = removers.length
          removers.push(inFlight.add(item))
          oracle.add(item)
        } else if (removers.length > 0) {
          const item = one.remove % removers.length
          removers[item]!()
          oracle.delete(item)
        }
      }
      const held: number[] = []
      inFlight.forEach((item) => {
        held.push(item)
      })
      expect(held.sort((a, b) => a - b)).toEqual([...oracle].sort((a, b) => a - b))
    }),
    { numRuns: 300 },
  )
})

it('lets go of what leaves, so a young collection frees it while 50 others are under way', () => {
  const inFlight = createInFlight<{ body: string }>()
  const under: Array<() => void> = []
  for (let id = 0; id < 50; id++) under.push(inFlight.add({ body: payload(id) }))
  const items = 5000
  // What is under way now moves to the old generation first, as answers do under load.
  const grown = oldGenerationGrowth((young) => {
    for (let id = 50; id < 50 + items; id++) {
      under.push(inFlight.add({ body: payload(id) }))
      under.shift()!()
      if (id % 500 === 0) young()
    }
  })
  // A Set measured about 7 MB here: its discarded tables held what was under way.
  expect(grown).toBeLessThan((items * payload(0).length) / 10)
  let held = 0
  inFlight.forEach(() => {
    held++
  })
  expect(held).toBe(50)
})
