import fc from 'fast-check'
import { expect, it } from 'vitest'
import { jsonPieces } from '../../src/core/http/json-pieces.js'

it('writes what JSON.stringify writes, in pieces none of which is much longer than 8 KiB', () => {
  // Long strings too, with astral characters across the slices' edges.
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', minLength: 8000, maxLength: 20000 }),
    fc.constant('\u0001'.repeat(20_000)),
  )
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
    node: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
    ),
  })).node
  fc.assert(
    fc.property(fc.array(value, { maxLength: 4 }), (items) => {
      const pieces = [...jsonPieces({ head: 'h', items: [] }, items)]
      expect(pieces.join('')).toBe(JSON.stringify({ head: 'h', items }))
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(6 * 8 * 1024 + 2)
    }),
    { numRuns: 200 },
  )
})
