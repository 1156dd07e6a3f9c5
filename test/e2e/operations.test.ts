import { expect, it } from 'vitest'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const { call, url } = useCliSandbox(['--seed', '5', '--pets', '30'])

it('lists seeded pets over HTTP', async () => {
  const response = await call('/pets?limit=5')
  expect(response.status).toBe(200)
  const pets = (await response.json()) as Array<{ id: number }>
  expect(pets.map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5])
})

it('creates a pet and then gets it by id', async () => {
  const created = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Biscuit', categoryId: 4, status: 'pending', id: 999, extra: true }),
  })
  expect(created.status).toBe(201)
  const pet = (await created.json()) as { id: number }
  expect(pet).toEqual({ id: pet.id, name: 'Biscuit', categoryId: 4, status: 'pending' })
  expect(pet.id).toBeGreaterThan(30)

  const fetched = await call(`/pets/${pet.id}`)
  expect(fetched.status).toBe(200)
  expect(await fetched.json()).toEqual(pet)
})

it('gives created pets ascending ids that are never reused', async () => {
  const ids: number[] = []
  for (let i = 0; i < 3; i++) {
    const response = await call('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Kit","categoryId":1}',
    })
    ids.push(((await response.json()) as { id: number }).id)
  }
  expect(ids[1]).toBe(ids[0]! + 1)
  expect(ids[2]).toBe(ids[1]! + 1)
})

it('answers 404 for an unknown pet id', async () => {
  const response = await call('/pets/4242')
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 })
})

it.each([
  ['limit=0', 'limit'],
  ['limit=abc', 'limit'],
  ['status=adopted', 'status'],
])('answers 400 for %s, naming the parameter', async (query, field) => {
  const response = await call(`/pets?${query}`)
  expect(response.status).toBe(400)
  const body = (await response.json()) as { code: string; message: string }
  expect(body.code).toBe('invalid_request')
  expect(body.message).toContain(field)
})

it.each([
  ['abc', 'petId must be an integer'],
  ['1.5', 'petId must be an integer'],
  ['9223372036854775808', 'petId must be an int64'],
  ['99999999999999999999', 'petId must be an int64'],
])('answers 400 for petId %s, which is no int64', async (petId, message) => {
  const response = await call(`/pets/${petId}`)
  expect(response.status).toBe(400)
  expect(((await response.json()) as { message: string }).message).toContain(message)
})

it.each(['0', '-1', '9007199254740992', '9007199254740993', '9223372036854775807', '-9223372036854775808'])(
  'answers 404 not_found for petId %s, an int64 that names no pet (D37)',
  async (petId) => {
    const response = await call(`/pets/${petId}`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ code: 'not_found', message: `pet ${petId} does not exist`, status: 404 })
  },
)

it.each([
  ['{"categoryId":1}', 'name is required'],
  ['{"name":"Rex"}', 'categoryId is required'],
  ['{"name":"   ","categoryId":1}', 'name'],
  [
    JSON.stringify({ name: 'x'.repeat(201), categoryId: 1 }),
    'name must be 1 to 200 characters (Unicode code points) as sent, at least one of them not white space',
  ],
  // D5 counts the name as sent, as the contract's maxLength does.
  [
    JSON.stringify({ name: ` ${'x'.repeat(200)}`, categoryId: 1 }),
    'name must be 1 to 200 characters (Unicode code points) as sent, at least one of them not white space',
  ],
  ['{"name":"Rex","categoryId":0}', 'categoryId'],
  ['{"name":"Rex","categoryId":1.5}', 'categoryId'],
  ['{"name":"Rex","categoryId":1,"status":"adopted"}', 'status'],
  ['{"name":', 'body is not valid JSON'],
  ['', 'body is required'],
  ['[1,2]', 'body must be a JSON object'],
  ['null', 'body must be a JSON object'],
])('answers 400 to the body %s', async (body, message) => {
  const before = (await (await call('/pets?limit=100')).json()) as unknown[]
  const response = await call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  expect(response.status).toBe(400)
  const error = (await response.json()) as { code: string; message: string }
  expect(error.code).toBe('invalid_request')
  expect(error.message).toContain(message)
  expect(await (await call('/pets?limit=100')).json()).toEqual(before)
})

it.each([
  [undefined, 'Content-Type is missing'],
  ['text/plain', 'text/plain is not supported'],
  ['application/x-www-form-urlencoded', 'not supported'],
])('answers 415 when Content-Type is %s', async (contentType, message) => {
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType }
  const response = await call('/pets', { method: 'POST', headers, body: new Blob(['{"name":"Rex","categoryId":1}']) })
  expect(response.status).toBe(415)
  const error = (await response.json()) as { code: string; message: string }
  expect(error).toMatchObject({ code: 'unsupported_media_type', status: 415 })
  expect(error.message).toContain(message)
})

it('accepts application/json with a charset parameter', async () => {
  const response = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"name":"Rex","categoryId":1}',
  })
  expect(response.status).toBe(201)
})

it('answers 413 to a body over 1 MiB', async () => {
  const body = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(1024 * 1024) })
  const response = await call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  expect(response.status).toBe(413)
  expect(await response.json()).toMatchObject({ code: 'payload_too_large', status: 413 })
})

it('answers 413 to a chunked body that grows over 1 MiB', async () => {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < 40) controller.enqueue(chunk)
      else controller.close()
    },
  })
  const response = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit)
  expect(response.status).toBe(413)
})

it('answers 401 without a key, with WWW-Authenticate: Bearer', async () => {
  const response = await call('/pets', { key: null })
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toBe('Bearer')
  expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 })
})

it.each([
  ['Bearer not-a-key'],
  ['Basic c2FuZGJveC1mcmVlLWtleTo='],
  ['Bearer'],
  ['sandbox-free-key'],
  ['Bearer sandbox-free-key extra'],
])('answers 401 to Authorization: %s', async (authorization) => {
  const response = await call('/pets', { key: null, headers: { authorization } })
  expect(response.status).toBe(401)
})

it('accepts the scheme name in any case', async () => {
  const response = await call('/pets', { key: null, headers: { authorization: 'bEaReR sandbox-free-key' } })
  expect(response.status).toBe(200)
})

it('does not accept a key in the query string', async () => {
  const response = await call('/pets?api_key=sandbox-free-key', { key: null })
  expect(response.status).toBe(401)
})

it('answers 405 with Allow for a known path and another method', async () => {
  const response = await call('/pets', { method: 'DELETE' })
  expect(response.status).toBe(405)
  expect(response.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
  expect(await response.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
  const onPet = await call('/pets/1', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })
  expect(onPet.status).toBe(405)
  expect(onPet.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
})

it('answers 404 for unknown paths under /v1 and for paths outside it', async () => {
  const unknown = await call('/owners')
  expect(unknown.status).toBe(404)
  expect(await unknown.json()).toMatchObject({ code: 'not_found' })
  const outside = await call(url().replace(/\/v1$/, '/v2/pets'))
  expect(outside.status).toBe(404)
  expect(await outside.json()).toMatchObject({ code: 'not_found' })
})

it.each(['/store', '/store/orders', '/store/orders/1', '/categories', '/categories/3'])(
  'answers 501 for %s',
  async (path) => {
    const response = await call(path)
    expect(response.status).toBe(501)
    expect(await response.json()).toMatchObject({ code: 'not_implemented', status: 501 })
  },
)

it('asks for a key before saying an area is not implemented', async () => {
  const response = await call('/store/orders', { key: null })
  expect(response.status).toBe(401)
})

it('reads percent-encoded and plain query strings alike over HTTP', async () => {
  const plain = await (await call('/pets?status=available&limit=2')).json()
  expect(plain).toHaveLength(2)
  expect(await (await call('/pets?status=av%61ilable&limit=%32')).json()).toEqual(plain)
  expect(await (await call('/pets?constructor=&__proto__=1&status=available&limit=2')).json()).toEqual(plain)
})
