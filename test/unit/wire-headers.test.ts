import fc from 'fast-check'
import { expect, it } from 'vitest'
import { WireHeaders } from '../../src/core/http/wire-headers.js'

// Names in mixed case, Set-Cookie among them; values with the whitespace Headers strips at the ends.
const name = fc.constantFrom('Accept', 'accept', 'X-Thing', 'x-thing', 'Set-Cookie', 'set-cookie', 'Vary', 'b', 'A')
const value = fc.stringMatching(/^[ \t]?[a-z0-9=;, ]{0,8}[ \t]?$/)
const operation = fc.oneof(
  fc.tuple(fc.constant('append' as const), name, value),
  fc.tuple(fc.constant('set' as const), name, value),
  fc.tuple(fc.constant('delete' as const), name, fc.constant('')),
)

function sameAs(wire: WireHeaders, headers: Headers): void {
  expect([...wire]).toEqual([...headers])
  expect(wire.getSetCookie()).toEqual(headers.getSetCookie())
  for (const asked of ['accept', 'X-THING', 'set-cookie', 'vary', 'b', 'a', 'missing']) {
    expect(wire.get(asked)).toBe(headers.get(asked))
    expect(wire.has(asked)).toBe(headers.has(asked))
  }
  const seen: string[] = []
  wire.forEach((v, n) => {
    seen.push(`${n}=${v}`)
  })
  const expected: string[] = []
  headers.forEach((v, n) => {
    expected.push(`${n}=${v}`)
  })
  expect(seen).toEqual(expected)
  // What the adapter writes: the same names and values, Set-Cookie one value each, in no order.
  const written = wire.written()
  const cookies = headers.getSetCookie()
  const want: Record<string, string | string[]> = {}
  headers.forEach((v, n) => {
    if (n !== 'set-cookie') want[n] = v
  })
  if (cookies.length > 0 || headers.has('set-cookie')) want['set-cookie'] = cookies
  expect(written).toEqual(want)
}

it('reads, writes and iterates as a fetch Headers does', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 12 }), (operations) => {
      const wire = new WireHeaders()
      const headers = new Headers()
      for (const [kind, n, v] of operations) {
        if (kind === 'delete') {
          wire.delete(n)
          headers.delete(n)
        } else {
          wire[kind](n, v)
          headers[kind](n, v)
        }
      }
      sameAs(wire, headers)
    }),
    { numRuns: 2000 },
  )
})

it("reads a request's raw pairs as the Headers they would make, one header set in place of the client's", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          name,
          value.map((v) => v.trim()),
        ),
        { maxLength: 10 },
      ),
      (pairs) => {
        const raw = pairs.flat()
        const wire = WireHeaders.fromRaw(raw, ['x-thing', 'from the server'])
        const headers = new Headers()
        for (const [n, v] of pairs) if (n.toLowerCase() !== 'x-thing') headers.append(n, v)
        headers.set('x-thing', 'from the server')
        sameAs(wire, headers)
      },
    ),
    { numRuns: 2000 },
  )
})
