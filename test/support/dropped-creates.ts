import { request } from 'node:http'
import { expect, it } from 'vitest'

/** The answer a create gets when its session was dropped while it was in flight (D34). */
export const SESSION_DROPPED = {
  code: 'conflict',
  status: 409,
  message: 'The session was dropped while this create was in flight; nothing was stored',
}

/** What the dropped-create tests reach: the API (checked against the contract) and admin API of one sandbox, any replica. */
export interface DroppedCreateTarget {
  url(): string
  check(method: string, url: string, response: Response): void
  call(path: string, init?: RequestInit): Promise<Response>
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>
}

/** Sends a create in `session` whose body ends only once `meanwhile` ran, as a slow client's does; resolves with its answer. */
async function slowCreate(
  target: DroppedCreateTarget,
  session: string,
  meanwhile: () => Promise<void>,
): Promise<Response> {
  const body = JSON.stringify({ name: 'In flight', categoryId: 1 })
  const url = `${target.url()}/pets`
  const answered = new Promise<Response>((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sandbox-enterprise-key',
        'content-type': 'application/json',
        'content-length': body.length,
        'x-sandbox-session': session,
      },
    })
    sent.on('error', reject)
    sent.on('response', (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(incoming.headers))
          if (typeof value === 'string') headers.set(name, value)
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode!, headers }))
      })
    })
    sent.write(body.slice(0, 5))
    // The session's use is counted once the head is in; the rest comes after the drop.
    setTimeout(() => {
      meanwhile().then(
        () => sent.end(body.slice(5)),
        (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
      )
    }, 300)
  })
  const response = await answered
  target.check('POST', url, response)
  return response
}

const create = (name: string, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-sandbox-session': session }) },
  body: JSON.stringify({ name, categoryId: 2 }),
})

/**
 * Creates in flight while their session is dropped (deleted, replaced, least recently used) store
 * nothing and are answered 409, and leave --max-pets whole: the target runs with `--pets 2
 * --max-pets 6 --max-sessions 2`. On Redis a replaced session's create lands in the session that
 * replaced it, counted there.
 */
export function droppedCreateTests(
  target: () => DroppedCreateTarget,
  replaced: 'refused' | 'in the new session',
): void {
  it('refuses a create whose session was deleted, replaced or dropped as least recently used while it was in flight; --max-pets stays whole', async () => {
    const { call, admin } = target()
    const drops: Record<string, () => Promise<void>> = {
      deleted: async () => {
        expect((await admin('/sessions/deleted', { method: 'DELETE' })).status).toBe(200)
      },
      replaced: async () => {
        expect((await admin('/sessions/replaced', { method: 'PUT', json: {} })).status).toBe(200)
      },
      evicted: async () => {
        for (const other of ['evictor-1', 'evictor-2'])
          expect((await call('/pets?limit=1', { headers: { 'x-sandbox-session': other } })).status).toBe(200)
      },
    }
    for (const [session, drop] of Object.entries(drops)) {
      expect((await call('/pets?limit=1', { headers: { 'x-sandbox-session': session } })).status).toBe(200)
      const answer = await slowCreate(target(), session, drop)
      if (session === 'replaced' && replaced === 'in the new session') {
        expect(answer.status).toBe(201)
        const { id } = (await answer.json()) as { id: number }
        expect((await call(`/pets/${id}`, { headers: { 'x-sandbox-session': session } })).status).toBe(200)
        continue
      }
      expect(answer.status, session).toBe(409)
      expect(await answer.json()).toEqual(SESSION_DROPPED)
    }
    expect([200, 404]).toContain((await admin('/sessions/replaced', { method: 'DELETE' })).status)
    // Nothing of them counts: the default session stores up to --max-pets.
    const made = await Promise.all(Array.from({ length: 4 }, (_, i) => call('/pets', create(`Room ${i}`))))
    expect(made.map((response) => response.status)).toEqual([201, 201, 201, 201])
    expect((await call('/pets', create('Over'))).status).toBe(507)
  })
}
