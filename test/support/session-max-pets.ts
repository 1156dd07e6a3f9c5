import { expect, it } from 'vitest'

/** How the tests reach a sandbox started with --pets 2 --max-pets 20 and an admin token, each call checked against the contract. */
export interface SessionMaxPetsParts {
  /** fetch `path` below /v1 with the enterprise demo key. */
  call(path: string, init?: RequestInit): Promise<Response>
  /** fetch `path` below /__sandbox with the admin token; `json` is sent as the body. */
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>
  /** `admin` in the process that answered `call`, whose HAR holds the exchanges it answered. */
  recorder(path: string): Promise<Response>
}

/**
 * Sessions made from a capsule, a recording or a fork count their pets against --max-pets (D23):
 * one that would pass it is refused with 507 and changes nothing. The same tests in memory and on Redis.
 */
export function sessionMaxPetsTests(parts: () => SessionMaxPetsParts): void {
  const put = (name: string, json: unknown) => parts().admin(`/sessions/${name}`, { method: 'PUT', json })
  const create = (session: string, name: string) =>
    parts().call('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': session },
      body: JSON.stringify({ name, categoryId: 1 }),
    })

  /** The default session's capsule with `count` pets of its own, ids 1 to `count`. */
  async function capsuleOf(count: number): Promise<Record<string, unknown>> {
    const capsule = (await (await parts().admin('/sessions/default/capsule')).json()) as {
      pets: Array<Record<string, unknown>>
    }
    const template = capsule.pets[0]!
    const pets = Array.from({ length: count }, (_, index) => ({
      ...template,
      id: index + 1,
      name: `Capsuled ${index + 1}`,
    }))
    return { ...capsule, pets, nextId: count + 1 }
  }

  async function expectTooLarge(response: Response, brings: number): Promise<void> {
    expect(response.status).toBe(507)
    expect(await response.json()).toEqual({
      code: 'storage_full',
      status: 507,
      message: `The sandbox stores at most 20 pets and this session's ${brings} more would pass it; nothing was changed`,
    })
  }

  it('refuses a capsule whose pets would pass --max-pets, changing nothing, and takes one that fits, again in its own place', async () => {
    await expectTooLarge(await put('big', { capsule: await capsuleOf(30) }), 30)
    expect((await parts().admin('/sessions/big')).status).toBe(404)
    // The default session is refused alike and keeps its world.
    await expectTooLarge(await put('default', { capsule: await capsuleOf(30) }), 30)
    expect(((await (await parts().admin('/sessions/default')).json()) as { pets: { count: number } }).pets.count).toBe(
      2,
    )

    const ten = await capsuleOf(10)
    expect((await put('ten', { capsule: ten })).status).toBe(200)
    // Replacing it gives its pets back first: the same capsule fits in its place.
    expect((await put('ten', { capsule: ten })).status).toBe(200)
    await expectTooLarge(await put('eleven', { capsule: ten }), 10)
    // 2 start-up pets and 10 of the capsule: 8 more creates fit, the 9th does not.
    for (let index = 0; index < 8; index++) expect((await create('ten', `Extra ${index}`)).status).toBe(201)
    expect((await create('default', 'One too many')).status).toBe(507)
    expect((await parts().admin('/sessions/ten', { method: 'DELETE' })).status).toBe(200)
  })

  it('refuses a fork or a recording whose pets would pass --max-pets, changing nothing', async () => {
    for (let index = 0; index < 7; index++) expect((await create('a', `Own ${index}`)).status).toBe(201)
    // 2 start-up pets and a's 7: a fork of a shares the start-up pets and adds its 7.
    expect((await put('b', { from: 'a' })).status).toBe(200)
    await expectTooLarge(await put('c', { from: 'a' }), 7)
    expect((await parts().admin('/sessions/c')).status).toBe(404)
    expect((await put('b', { from: 'a' })).status).toBe(200)

    // A recording of a's listing holds its 9 pets, in a world of their own.
    expect((await parts().call('/pets?limit=100', { headers: { 'x-sandbox-session': 'a' } })).status).toBe(200)
    const har = await (await parts().recorder('/requests.har?session=a')).json()
    await expectTooLarge(await put('d', { har }), 9)
    expect((await parts().admin('/sessions/d')).status).toBe(404)
    // 16 pets held (2 start-up, a's 7, b's 7): four more creates fit, anywhere.
    for (const session of ['default', 'a', 'b', 'fresh'])
      expect((await create(session, `Into ${session}`)).status).toBe(201)
    expect((await create('a', 'One too many')).status).toBe(507)
  })
}
