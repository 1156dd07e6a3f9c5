import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { http, HttpResponse } from 'msw'
import { expect, it } from 'vitest'
import { isAdapterRequest } from '../../src/core/http/adapter-request.js'
import { JSON_CONTENT_TYPE, jsonText, toResponse } from '../../src/core/http/to-response.js'
import { createRequestListener } from '../../src/node/server/create-request-listener.js'
import { createAnswerTail } from '../../src/core/pipeline/answer-tail.js'

async function serve(handlers: Parameters<typeof createRequestListener>[0]) {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', createRequestListener(handlers, { origin, tail: createAnswerTail() }))
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

it('translates a request to msw and the response back, body and headers', async () => {
  const server = await serve([
    http.post('*/echo', async ({ request }) =>
      HttpResponse.json(
        {
          method: request.method,
          body: await request.text(),
          address: request.headers.get('x-sandbox-client-address'),
        },
        { status: 202, headers: { 'x-extra': 'yes' } },
      ),
    ),
  ])
  try {
    const response = await fetch(`${server.origin}/echo`, {
      method: 'POST',
      body: 'hello',
      headers: { 'x-sandbox-client-address': 'spoofed' },
    })
    expect(response.status).toBe(202)
    expect(response.headers.get('x-extra')).toBe('yes')
    expect(await response.json()).toEqual({ method: 'POST', body: 'hello', address: '127.0.0.1' })
  } finally {
    await server.close()
  }
})

it('answers 500 with an Error body when a handler throws past msw', async () => {
  const server = await serve([
    http.get('*/boom', () => {
      throw new Error('kaput')
    }),
  ])
  try {
    const response = await fetch(`${server.origin}/boom`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({
      code: 'internal_error',
      message: 'The sandbox failed to answer this request.',
      status: 500,
    })
  } finally {
    await server.close()
  }
})

it('writes the JSON text of a body-less response, made for its AdapterRequest, with its byte length', async () => {
  const seen: boolean[] = []
  const server = await serve([
    http.all('*/pets', ({ request }) => {
      const response = toResponse(
        { status: 200, headers: new Headers({ 'x-extra': 'yes' }), body: { name: 'Zoë 🐾', n: 1 } },
        request,
      )
      seen.push(isAdapterRequest(request), response.body === null)
      return response
    }),
  ])
  try {
    const response = await fetch(`${server.origin}/pets`)
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(seen.slice(0, 2)).toEqual([true, true])
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE)
    expect(response.headers.get('x-extra')).toBe('yes')
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength)
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ name: 'Zoë 🐾', n: 1 })

    const head = await fetch(`${server.origin}/pets`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(null)
    expect(await head.text()).toBe('')
  } finally {
    await server.close()
  }
})

it('gives any other request an ordinary Response whose body is the JSON text, with its length', async () => {
  const response = toResponse(
    { status: 201, headers: new Headers(), body: { a: [1, 2], name: 'Zoë' } },
    new Request('http://x/'),
  )
  expect(jsonText(response)).toBe(undefined)
  expect(response.status).toBe(201)
  expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength('{"a":[1,2],"name":"Zoë"}')))
  expect(await response.json()).toEqual({ a: [1, 2], name: 'Zoë' })
})
