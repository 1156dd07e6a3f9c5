import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/core/errors/config-error.js'
import {
  baggageSession,
  checkSessionName,
  createBaggageReader,
  readSessionName,
  requestedSession,
} from '../../src/core/sessions/session-name.js'
import { redisKeys } from '../../src/node/redis/redis-keys.js'

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

  it('reads baggage through a remembering reader as without it, past what the reader keeps and back', () => {
    const fromBaggage = createBaggageReader()
    const values = Array.from({ length: 200 }, (_, n) =>
      n % 3 === 0 ? `userId=u${n}` : n % 3 === 1 ? `sandbox-session=w${n};ttl=5,tenant=a` : `sandbox-session=bad ${n}`,
    )
    // Each value three times: first read, remembered, and read again once 199 others pushed it out.
    for (const value of [...values, ...values.slice().reverse(), ...values]) {
      const header = (name: string) => new Headers({ baggage: value }).get(name)
      expect(requestedSession(header, fromBaggage), value).toEqual(requestedSession(header))
    }
  })
})

describe('SessionName', () => {
  it("is made only of a name the rule lets through, and only such a name builds a session's Redis keys", () => {
    const keys = redisKeys('p:').of('default')
    expect(keys.session(checkSessionName('worker-1', 'session name'))).toBe('p:s:worker-1')
    expect(readSessionName('has space', 'X-Sandbox-Session')).toEqual({
      refusal: expect.stringMatching(/^X-Sandbox-Session must be /),
    })
    expect(
      readSessionName('sandbox-free-key', 'session name', { keys: ['sandbox-free-key'], adminToken: undefined }),
    ).toEqual({
      refusal: 'session name must not be an API key or the admin token',
    })
    expect(() => checkSessionName('a/b', 'session name')).toThrow(ConfigError)
    // @ts-expect-error: a string the rule did not check is no SessionName, so it builds no session key.
    expect(keys.session('unchecked')).toBe('p:s:unchecked')
  })
})
