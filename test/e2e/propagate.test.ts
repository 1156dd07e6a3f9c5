import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// `node --import petstore-sandbox/propagate` (D43): an app server that forwards no session header,
// whose inbound requests' sessions still reach the sandbox, through fetch and node:http.
const PRELOAD = new URL('../../dist/propagate.js', import.meta.url).href
const { url, call } = useCliSandbox(['--pets', '5'])
const CONCURRENT = 12

// The other origin the app calls: what it was sent is kept.
const seenElsewhere: IncomingHttpHeaders[] = []
let other: Server
beforeAll(async () => {
  other = createServer((request, response) => {
    seenElsewhere.push(request.headers)
    response.end('{}')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
})
afterAll(() => new Promise((resolve) => other.close(resolve)))
const otherOrigin = () => `http://127.0.0.1:${(other.address() as AddressInfo).port}`

// The app: each inbound request waits until all of them are in, then creates a pet by fetch and
// lists by node:http's named `request` export, awaiting between each step, and calls another origin
// both ways. It forwards nothing of the inbound request.
const APP = `
import http, { request } from 'node:http'
import { EventEmitter } from 'node:events'
const sandbox = process.env.APP_SANDBOX
const other = process.env.APP_OTHER
const expected = Number(process.env.APP_CONCURRENT)
const waiting = []
const allIn = () => new Promise((resolve) => { waiting.push(resolve); if (waiting.length === expected) for (const go of waiting.splice(0)) go() })
const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 20))
const auth = { authorization: 'Bearer sandbox-enterprise-key' }
const listByHttp = (url) => new Promise((resolve, reject) => {
  request(url, { headers: auth }, (answer) => {
    let body = ''
    answer.on('data', (chunk) => (body += chunk))
    answer.on('end', () => resolve({ status: answer.statusCode, session: answer.headers['x-sandbox-session'] ?? null, names: JSON.parse(body).map((pet) => pet.name) }))
  }).on('error', reject).end()
})
http.createServer(async (inbound, outbound) => {
  const name = new URL(inbound.url, 'http://app').searchParams.get('name')
  await allIn()
  await pause()
  const created = await fetch(sandbox + '/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) })
  await pause()
  const listed = await listByHttp(sandbox + '/pets?limit=100')
  await fetch(other + '/by-fetch')
  await new Promise((resolve) => http.get(other + '/by-http', (answer) => answer.resume().on('end', resolve)))
  outbound.end(JSON.stringify({
    created: { status: created.status, session: created.headers.get('x-sandbox-session') },
    listed,
    patched: http.Server.prototype.emit !== EventEmitter.prototype.emit,
  }))
}).listen(0, '127.0.0.1', function () { console.log('APP ' + this.address().port) })
`

interface Seen {
  created: { status: number; session: string | null }
  listed: { status: number; session: string | null; names: string[] }
  patched: boolean
}

/** Starts the app with the preload, under `env`; resolves with its origin and its process. */
async function startApp(env: NodeJS.ProcessEnv, concurrent: number): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', PRELOAD, '--input-type=module', '-e', APP], {
    env: {
      ...process.env,
      PETSTORE_SANDBOX_URL: undefined,
      ...env,
      APP_SANDBOX: url(),
      APP_OTHER: otherOrigin(),
      APP_CONCURRENT: String(concurrent),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = /APP (\d+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the app exited ${code}`)))
  })
  return { origin: `http://127.0.0.1:${port}`, child }
}

const stop = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve).kill())

it('carries each inbound request’s session to the sandbox across awaits, by fetch and node:http, interleaved; other origins untouched', async () => {
  const app = await startApp({ PETSTORE_SANDBOX_URL: url() }, CONCURRENT)
  try {
    seenElsewhere.length = 0
    const sessions = Array.from({ length: CONCURRENT }, (_, index) => `propagated-${index}`)
    // Half name their session by the header, half by baggage, as an instrumented browser would.
    const answers = await Promise.all(
      sessions.map(async (session, index) => {
        const headers: Record<string, string> =
          index % 2 === 0
            ? { 'x-sandbox-session': session }
            : { baggage: `userId=u${index},sandbox-session=${session}` }
        return (await (await fetch(`${app.origin}/?name=${session}-pet`, { headers })).json()) as Seen
      }),
    )
    for (const [index, seen] of answers.entries()) {
      const session = sessions[index]!
      expect(seen.patched).toBe(true)
      expect(seen.created).toEqual({ status: 201, session })
      expect(seen.listed.session).toBe(session)
      // Its own pet, and no other session's.
      expect(seen.listed.names.slice(5)).toEqual([`${session}-pet`])
    }
    expect(seenElsewhere).toHaveLength(2 * CONCURRENT)
    for (const headers of seenElsewhere) expect(headers['x-sandbox-session']).toBeUndefined()
    // The default session got none of it.
    expect(((await (await call('/pets?limit=100')).json()) as unknown[]).length).toBe(5)
  } finally {
    await stop(app.child)
  }
}, 60_000)

it('carries nothing, and replaces nothing, when PETSTORE_SANDBOX_URL is unset', async () => {
  const app = await startApp({}, 1)
  try {
    const seen = (await (
      await fetch(`${app.origin}/?name=unpropagated`, { headers: { 'x-sandbox-session': 'not-carried' } })
    ).json()) as Seen
    expect(seen.patched).toBe(false)
    expect(seen.created).toEqual({ status: 201, session: null })
    expect(seen.listed.names).toContain('unpropagated')
  } finally {
    await stop(app.child)
  }
}, 60_000)
