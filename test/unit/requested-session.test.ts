import { describe, expect, it } from 'vitest'
import { baggageSession, requestedSession } from '../../src/core/sessions/session-name.js'

describe('baggageSession', () => {
  it('reads the sandbox-session member among others, with properties and whitespace, percent-decoded', () => {
    expect(baggageSession('sandbox-session=worker-1')).toBe('worker-1')
    expect(baggageSession('userId=alice, sandbox-session = worker-2 ;ttl=5;flag , other=x')).toBe('worker-2')
    expect(baggageSession('sandbox-session=run%2E7')).toBe('run.7')
    expect(baggageSession('a=1,,sandbox-session=w,')).toBe('w')
  })

  it('names nothing for a malformed header or one without the member', () => {
    for (const malformed of [
      'sandbox-session',
      'sandbox-session=a b',
      'sandbox-session="w"',
      'k v=1, sandbox-session=w',
      'sandbox-session=w;bad prop',
      `sandbox-session=w,${'x=1,'.repeat(3000)}`,
    ]) {
      expect(baggageSession(malformed), malformed).toBeUndefined()
    }
    expect(baggageSession('userId=alice')).toBeUndefined()
    expect(baggageSession('my-sandbox-session=w')).toBeUndefined()
  })

  it('joins two members as a repeated header is, and keeps a bad percent-encoding for the name rule to refuse', () => {
    expect(baggageSession('sandbox-session=a,sandbox-session=b')).toBe('a, b')
    expect(baggageSession('sandbox-session=%E0%A4%A')).toBe('%E0%A4%A')
  })
})

describe('requestedSession', () => {
  const of = (headers: Record<string, string>) => requestedSession((name) => new Headers(headers).get(name))

  it('prefers X-Sandbox-Session over baggage, and names none without either', () => {
    expect(of({ 'x-sandbox-session': 'h', baggage: 'sandbox-session=b' })).toEqual({
      name: 'h',
      where: 'X-Sandbox-Session',
    })
    expect(of({ baggage: 'sandbox-session=b' })).toEqual({ name: 'b', where: "baggage's sandbox-session" })
    expect(of({ baggage: 'nonsense here' })).toBeUndefined()
    expect(of({})).toBeUndefined()
  })
})
