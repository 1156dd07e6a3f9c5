import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'

/** The highest id a pet gets (D37). */
export const MAX_ID = Number.MAX_SAFE_INTEGER

/** The one answer a create gets once the next id would pass MAX_ID. */
export const IDS_EXHAUSTED = {
  code: 'storage_full',
  status: 507,
  message: `The session assigned every pet id up to ${MAX_ID}; nothing was stored`,
}

/** A pets file of one pet with `id`. */
export function petsFileEndingAt(id: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-id-edges-')), `ending-at-${id}.json`)
  writeFileSync(file, JSON.stringify([{ id, name: 'Last', categoryId: 1 }]))
  return file
}

/** What the id-edge tests reach: the API and admin API of one sandbox (any of its replicas), and another started with `args`. */
export interface IdEdgeTarget {
  call(path: string, init?: RequestInit): Promise<Response>
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>
  /** Starts another sandbox of the same mode with `args`, for a create through it; resolves with that answer. */
  createIn(args: string[]): Promise<Response>
}

const create = (name: string, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-sandbox-session': session }) },
  body: JSON.stringify({ name, categoryId: 2 }),
})

/**
 * Ids from 1e14 to 2^53-1 (D37), in whichever mode `target` runs: every create gets its own exact
 * id, written in plain digits, and past 2^53-1 a create is refused and stores nothing. The target
 * was started with `petsFileEndingAt(99999999999999)`.
 */
export function idEdgeTests(target: () => IdEdgeTarget): void {
  it('gives concurrent creates past 1e14 each its own id, in plain digits, every pet kept', async () => {
    const { call } = target()
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call('/pets', create(`Past 1e14 ${i}`))))
    const texts = await Promise.all(answers.map((response) => response.text()))
    expect(answers.map((response) => response.status)).toEqual(Array.from({ length: 6 }, () => 201))
    const ids = texts.map((text) => (JSON.parse(text) as { id: number }).id).sort((a, b) => a - b)
    expect(ids).toEqual(Array.from({ length: 6 }, (_, i) => 1e14 + i))
    for (const text of texts) expect(text).toMatch(/^\{"id":1000000000000\d\d,/)
    const listed = await call('/pets?limit=100')
    const listing = await listed.text()
    expect(listing).not.toContain('e+')
    expect((JSON.parse(listing) as Array<{ id: number }>).map((pet) => pet.id)).toEqual([99999999999999, ...ids])
    for (const id of ids) expect((await call(`/pets/${id}`)).status).toBe(200)
  })

  it('assigns ids up to 2^53-1 from a capsule, then refuses every create with one clear 507 that stores nothing', async () => {
    const { call, admin } = target()
    const made = (await (await admin('/sessions/default/capsule')).json()) as Record<string, unknown>
    const capsule = { ...made, har: undefined, pets: [], nextId: MAX_ID - 2 }
    expect((await admin('/sessions/near-the-top', { method: 'PUT', json: { capsule } })).status).toBe(200)
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call('/pets', create(`Near the top ${i}`, 'near-the-top'))),
    )
    const bodies = await Promise.all(answers.map((response) => response.json() as Promise<{ id?: number }>))
    const created = bodies.filter((_, i) => answers[i]!.status === 201).map((pet) => pet.id!)
    expect(created.sort((a, b) => a - b)).toEqual([MAX_ID - 2, MAX_ID - 1, MAX_ID])
    expect(bodies.filter((_, i) => answers[i]!.status === 507)).toEqual([IDS_EXHAUSTED, IDS_EXHAUSTED])
    const inSession = { headers: { 'x-sandbox-session': 'near-the-top' } }
    expect((await (await call(`/pets/${MAX_ID}`, inSession)).json()).name).toMatch(/^Near the top/)
    expect((await (await call('/pets?limit=10', inSession)).json()).map((pet: { id: number }) => pet.id)).toEqual(
      created,
    )
    const session = (await (await admin('/sessions/near-the-top')).json()) as {
      pets: { count: number; nextId: number }
    }
    expect(session.pets).toEqual({ count: 3, nextId: MAX_ID + 1 })
    // The session's own capsule is restored again, its pets whole, and its creates refused alike.
    const again = (await (await admin('/sessions/near-the-top/capsule')).json()) as Record<string, unknown>
    expect(again.nextId).toBe(MAX_ID + 1)
    expect(
      (await admin('/sessions/at-the-top', { method: 'PUT', json: { capsule: { ...again, har: undefined } } })).status,
    ).toBe(200)
    expect((await call(`/pets/${MAX_ID}`, { headers: { 'x-sandbox-session': 'at-the-top' } })).status).toBe(200)
    const refused = await call('/pets', create('Past the top', 'at-the-top'))
    expect(refused.status).toBe(507)
    expect(await refused.json()).toEqual(IDS_EXHAUSTED)
    for (const name of ['near-the-top', 'at-the-top'])
      expect((await admin(`/sessions/${name}`, { method: 'DELETE' })).status).toBe(200)
  })

  it('refuses the first create after a pets file ending at 2^53-1', async () => {
    const answer = await target().createIn(['--pets-file', petsFileEndingAt(MAX_ID)])
    expect(answer.status).toBe(507)
    expect(await answer.json()).toEqual(IDS_EXHAUSTED)
  })
}
