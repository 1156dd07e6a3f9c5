import { createServer, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { createBatchedEnds } from '../../src/node/server/batched-ends.js'

/** Serves `/n` with the body `answer n` through `end`, a response held until `flush` runs. */
async function serve(onAnswer: (outgoing: ServerResponse, n: number) => void) {
  const server = createServer((incoming, outgoing) => {
    incoming.resume()
    onAnswer(outgoing, Number(incoming.url!.slice(1)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Asks `/n` over a connection of its own: the body, or the error that ended it. */
function ask(origin: string, n: number): Promise<string> {
  return new Promise((resolve) => {
    httpRequest(`${origin}/${n}`, { agent: false }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve(text))
      response.on('error', () => resolve('(reset)'))
    })
      .on('error', () => resolve('(reset)'))
      .end()
  })
}

it('holds every answer until its batch is flushed, then ends each with its own bytes', async () => {
  const flushes: Array<() => void> = []
  const end = createBatchedEnds((flush) => flushes.push(flush))
  const held: ServerResponse[] = []
  const server = await serve((outgoing, n) => {
    outgoing.writeHead(200, { 'content-type': 'text/plain' })
    end(outgoing, `answer ${n}`)
    held.push(outgoing)
  })
  try {
    const answers = Promise.all(Array.from({ length: 20 }, (_, n) => ask(server.origin, n)))
    while (held.length < 20) await new Promise((resolve) => setTimeout(resolve, 5))
    // Nothing went out yet, and one flush was asked for each batch, not one per answer.
    expect(held.every((outgoing) => !outgoing.writableEnded)).toBe(true)
    expect(flushes.length).toBeLessThan(20)
    for (const flush of flushes) flush()
    expect(await answers).toEqual(Array.from({ length: 20 }, (_, n) => `answer ${n}`))
  } finally {
    await server.close()
  }
})

it('ends the rest of a batch when one answer cannot be ended, and skips a response destroyed meanwhile', async () => {
  const flushes: Array<() => void> = []
  const end = createBatchedEnds((flush) => flushes.push(flush))
  let arrived = 0
  const server = await serve((outgoing, n) => {
    if (n === 1) {
      // Its length says more than it carries: node refuses to end it.
      outgoing.strictContentLength = true
      outgoing.writeHead(200, { 'content-length': '100' })
    } else outgoing.writeHead(200)
    end(outgoing, `answer ${n}`)
    if (n === 2) outgoing.destroy()
    arrived++
  })
  try {
    const answers = Promise.all([0, 1, 2, 3].map((n) => ask(server.origin, n)))
    while (arrived < 4) await new Promise((resolve) => setTimeout(resolve, 5))
    for (const flush of flushes) flush()
    expect(await answers).toEqual(['answer 0', '(reset)', '(reset)', 'answer 3'])
  } finally {
    await server.close()
  }
})

it('flushes on its own once the event loop has run its I/O callbacks', async () => {
  const end = createBatchedEnds()
  const server = await serve((outgoing, n) => {
    outgoing.writeHead(200)
    end(outgoing, `answer ${n}`)
  })
  try {
    expect(await Promise.all([7, 8].map((n) => ask(server.origin, n)))).toEqual(['answer 7', 'answer 8'])
  } finally {
    await server.close()
  }
})
