import { writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'

/** The key the start-up world of `bannedKeyCapsule` holds banned: valid, yet refused in any fresh session. */
export const BANNED_KEY = 'sandbox-pro-key'

/** Writes a capsule whose start-up world holds BANNED_KEY banned, for `--from`; answers its path. */
export async function bannedKeyCapsule(): Promise<string> {
  const maker = createSandbox({})
  maker.quota.set(BANNED_KEY, { banned: true })
  const file = join(mkdtempSync(join(tmpdir(), 'stranger-sessions-')), 'banned-key.json')
  writeFileSync(file, JSON.stringify(await maker.session('default').capsule()))
  return file
}

/** How the tests reach a sandbox started with --max-sessions 3, an admin token and `--from` a bannedKeyCapsule, each call checked against the contract. */
export interface StrangerSessionsParts {
  /** fetch `path` below /v1, with `key` (default: the enterprise demo key; null: none). */
  call(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>
  /** fetch `path` below /__sandbox with the admin token. */
  admin(path: string): Promise<Response>
  /** The origin the API is served under (`/v1` below it). */
  origin(): string
}

/** Only a request admission may let through makes the session it names (D34). The same test in memory and on Redis. */
export function strangerSessionsTests(parts: () => StrangerSessionsParts): void {
  /** One stranger's request naming a fresh session: no key, a wrong key, a preflight, or a path outside the API. */
  async function stranger(index: number): Promise<void> {
    const headers = { 'x-sandbox-session': `stranger-${index}` }
    const { call } = parts()
    switch (index % 4) {
      case 0:
        expect([401, 429]).toContain((await call('/pets', { key: null, headers })).status)
        return
      case 1:
        expect([401, 429]).toContain((await call('/pets', { key: 'not-a-key-of-this-sandbox', headers })).status)
        return
      case 2: {
        const preflight = { ...headers, origin: 'http://app.test', 'access-control-request-method': 'GET' }
        expect((await call('/pets', { method: 'OPTIONS', key: null, headers: preflight })).status).toBe(204)
        return
      }
      default: {
        // With a valid key, but outside the API: an Error body, as one-server.test.ts checks it.
        const outside = await fetch(`${parts().origin()}/elsewhere`, {
          headers: { ...headers, authorization: 'Bearer sandbox-enterprise-key' },
        })
        expect(outside.status).toBe(404)
        expect(await outside.json()).toMatchObject({
          code: 'not_found',
          message: expect.stringMatching(/not part of the API/),
          status: 404,
        })
      }
    }
  }

  it('makes no session for 1000 requests admission refuses or a preflight: a team session and its pet stay', async () => {
    const created = await parts().call('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'worker-1' },
      body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    // Refused (401), soon by the address's rate limit (429, D16); a preflight answered (204).
    for (let batch = 0; batch < 1000; batch += 50)
      await Promise.all(Array.from({ length: 50 }, (_, offset) => stranger(batch + offset)))
    const listed = (await (await parts().admin('/sessions')).json()) as { sessions: Array<{ name: string }> }
    expect(listed.sessions.map((session) => session.name)).toEqual(['default', 'worker-1'])
    const kept = await parts().call(`/pets/${id}`, { headers: { 'x-sandbox-session': 'worker-1' } })
    expect(kept.status).toBe(200)
    expect(((await kept.json()) as { name: string }).name).toBe('Kept')
  })

  it('makes no session for a valid key admission refuses, and makes one for the key it lets through', async () => {
    const names = async () =>
      ((await (await parts().admin('/sessions')).json()) as { sessions: Array<{ name: string }> }).sessions.map(
        (session) => session.name,
      )
    // Banned in the start-up world, so in every session made from it: refused before any session is made.
    for (let index = 0; index < 5; index++) {
      const refused = await parts().call('/pets', {
        key: BANNED_KEY,
        headers: { 'x-sandbox-session': `refused-${index}` },
      })
      expect(refused.status).toBe(429)
      expect(await refused.json()).toMatchObject({ code: 'temporarily_banned' })
    }
    expect((await names()).filter((name) => name.startsWith('refused-'))).toEqual([])
    const admitted = await parts().call('/pets', { headers: { 'x-sandbox-session': 'admitted-1' } })
    expect(admitted.status).toBe(200)
    expect(await names()).toContain('admitted-1')
  })
}
