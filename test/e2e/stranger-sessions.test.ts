import { expect, it } from 'vitest'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Only a request admission may let through makes the session it names (D34): strangers cannot push a team's sessions out.
const TOKEN = 'admin-token-for-stranger-sessions'
const { call, url } = useCliSandbox(['--admin-token', TOKEN, '--max-sessions', '3'])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

/** One stranger's request naming session `name`: no key, a wrong key, or a preflight. */
function stranger(index: number): Promise<Response> {
  const headers = { 'x-sandbox-session': `stranger-${index}` }
  switch (index % 3) {
    case 0:
      return call('/pets', { key: null, headers })
    case 1:
      return call('/pets', { key: 'not-a-key-of-this-sandbox', headers })
    default:
      return call('/pets', { method: 'OPTIONS', key: null, headers: { ...headers, origin: 'http://app.test', 'access-control-request-method': 'GET' } })
  }
}

it('makes no session for 1000 requests admission refuses or a preflight: a team session and its pet stay', async () => {
  const created = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-session': 'worker-1' },
    body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  const { id } = (await created.json()) as { id: number }
  for (let batch = 0; batch < 1000; batch += 50) {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, offset) => stranger(batch + offset)))
    // Refused (401), soon by the address's rate limit (429, D16); a preflight answered (204).
    for (const [offset, answer] of answers.entries()) expect((batch + offset) % 3 === 2 ? [204] : [401, 429]).toContain(answer.status)
  }
  const listed = (await (await admin('/sessions')).json()) as { sessions: Array<{ name: string }> }
  expect(listed.sessions.map((session) => session.name)).toEqual(['default', 'worker-1'])
  const kept = await call(`/pets/${id}`, { headers: { 'x-sandbox-session': 'worker-1' } })
  expect(kept.status).toBe(200)
  expect(((await kept.json()) as { name: string }).name).toBe('Kept')
})
