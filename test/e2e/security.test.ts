import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { rawExchange } from '../support/raw-http.js'
import { runCli, startCli } from '../support/start-cli.js'

const SECRET = 'team-secret-9f8e7d6c5b4a'
const contract = createContractChecker()
const adminContract = createAdminContractChecker()

async function keysFile(content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-security-'))
  const file = join(dir, 'keys.json')
  await writeFile(file, content)
  return file
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Requests that carry the key everywhere a client might put it, right or wrong. */
async function sendTheKeyEverywhere(url: string): Promise<string[]> {
  const bodies: string[] = []
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, init)
    bodies.push(`${response.status} ${await response.text()}`)
  }
  await call('/pets?limit=1', { headers: { authorization: `Bearer ${SECRET}` } })
  await call('/pets?limit=1', { headers: { authorization: `bearer   ${SECRET}  ` } })
  await call('/pets', { headers: { authorization: `Bearer ${SECRET} trailing` } })
  await call('/pets', { headers: { authorization: `Basic ${SECRET}` } })
  await call('/pets', { headers: { authorization: SECRET } })
  await call('/pets', { headers: { authorization: `Bearer ${SECRET}x` } })
  await call(`/pets?api_key=${SECRET}`)
  await call(`/pets?key=${SECRET}&limit=1`, { headers: { authorization: `Bearer ${SECRET}` } })
  await call(`/pets?limit=${SECRET}`, { headers: { authorization: `Bearer ${SECRET}` } })
  await call(`/pets?status=${SECRET}`, { headers: { authorization: `Bearer ${SECRET}` } })
  await call(`/pets/${SECRET}`, { headers: { authorization: `Bearer ${SECRET}` } })
  await call(`/${SECRET}`, { headers: { authorization: `Bearer ${SECRET}` } })
  await call(`/${SECRET}`)
  await call('/pets', { headers: { 'x-api-key': SECRET } })
  await call('/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: `{"name":"${SECRET}",`,
  })
  await call('/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: `{"name":1,"categoryId":"${SECRET}"}`,
  })
  await call('/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': `text/${SECRET}` },
    body: '{}',
  })
  // And through node's parser: a head it refuses, with the key in it.
  const raw = await rawExchange(
    url,
    `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRET}\r\nBad Header: ${SECRET}\r\n\r\n`,
  )
  bodies.push(`${raw?.status} ${raw?.body.toString('utf8')}`)
  return bodies
}

it.each(['pretty', 'json'])('never shows a configured key whole in the %s log or in Error bodies', async (format) => {
  const file = await keysFile(JSON.stringify({ keys: [{ key: SECRET, plan: 'pro' }] }))
  const cli = await startCli(['--log', format, '--keys', file])
  try {
    const bodies = await sendTheKeyEverywhere(cli.url)
    await sleep(200)
    // The traffic was logged (so the check below looked at real log lines)...
    expect(
      cli
        .output()
        .split('\n')
        .filter((line) => line.includes('/v1/')).length,
    ).toBeGreaterThanOrEqual(17)
    // ...and neither the log, the banner nor any answer holds the key.
    expect(cli.output()).not.toContain(SECRET)
    for (const body of bodies) expect(body).not.toContain(SECRET)
    // Answers that echo the path show the key masked.
    expect(bodies.some((body) => body.includes('team…#'))).toBe(true)
  } finally {
    await cli.stop()
  }
})

it.each([
  // V8 quotes the text around an unexpected token, which would be the key here...
  ['an unexpected character right after the key', `{"keys":[{"plan":"pro","key":"${SECRET}"x}]}`, 'line 1, column 56'],
  ['a key without quotes', `{"keys":[{"plan":"pro",\n "key":${SECRET}}]}`, 'line 2, column 9'],
  // ...and gives a position for the others, which is all that is said of them too.
  [
    'a line break inside the key',
    `{"keys":[{"plan":"pro","key":"${SECRET.slice(0, 6)}\n${SECRET.slice(6)}"}]}`,
    'line 1, column 37',
  ],
  ['a trailing comma', `{"keys":[{"plan":"pro","key":"${SECRET}",}]}`, 'line 1, column 57'],
])('does not quote a keys file that is not valid JSON (%s), and says the line and column', async (_, text, where) => {
  const file = await keysFile(text)
  const { code, stdout, stderr } = await runCli(['start', '--port', '0', '--keys', file])
  expect(code).toBe(1)
  expect(stderr.trim()).toBe(`error: keys file ${file}: not valid JSON at ${where}`)
  expect(stdout + stderr).not.toContain(SECRET.slice(-6))
})

it('does not quote a key pasted where a field name goes, nor a key that breaks the key rule', async () => {
  const cases: Array<[string, string]> = [
    [
      `{"keys":[{"plan":"pro","${SECRET}":"team"}]}`,
      'keys[0] has an unknown field; known fields: key, plan, perMinute, perDay',
    ],
    [`{"keys":[{"plan":"pro","key":"${SECRET}!"}]}`, 'keys[0].key must be a bearer token'],
  ]
  for (const [text, message] of cases) {
    const file = await keysFile(text)
    const { code, stdout, stderr } = await runCli(['start', '--port', '0', '--keys', file])
    expect(code).toBe(1)
    expect(stderr).toContain(message)
    expect(stdout + stderr).not.toContain(SECRET.slice(-6))
  }
})

it('binds 127.0.0.1 by default and warns whenever it is bound to all interfaces', async () => {
  const local = await startCli(['--log', 'off'])
  try {
    expect(new URL(local.url).hostname).toBe('127.0.0.1')
    expect(local.output()).not.toMatch(/all interfaces/)
  } finally {
    await local.stop()
  }
  for (const host of ['0.0.0.0', '::', '0:0:0:0:0:0:0:0']) {
    const open = await startCli(['--log', 'off', '--host', host])
    try {
      expect(open.output()).toMatch(/Warning: bound to all interfaces/)
    } finally {
      await open.stop()
    }
  }
})

it('masks a key and the admin token everywhere they travel: however written, in the log, the list, the HAR and every answer (D35)', async () => {
  // A key with the characters a bearer token may hold beyond letters, which quote() and JSON escape.
  const KEY = 'team/secret+key9f8e=='
  const ADMIN = 'admin-token-5a6b7c8d9e0f'
  const file = await keysFile(JSON.stringify({ keys: [{ key: KEY, plan: 'pro' }] }))
  const cli = await startCli(['--log', 'json', '--keys', file, '--admin-token', ADMIN])
  try {
    const quoted = encodeURIComponent(KEY).replace(/%2F/g, '/') // Python's quote(): '/' stays, '+' and '=' are encoded
    const answers: string[] = []
    const call = async (path: string, init: RequestInit = {}) => {
      const target = `${cli.url}${path}`
      const response = await fetch(target, init)
      contract.check(init.method ?? 'GET', target, response)
      // Error bodies echo what was sent; a pet's name is the client's own data, answered as stored.
      const text = await response.text()
      if (!response.ok) answers.push(text)
    }
    const bearer = { authorization: `Bearer ${KEY}` }
    await call('/pets?limit=1', {
      headers: { ...bearer, cookie: `apikey=${KEY}; theme=dark`, 'x-api-key': `${KEY} ${ADMIN}` },
    })
    await call(`/pets/${quoted}`, { headers: bearer })
    await call(`/nothing/${quoted}`, { headers: bearer })
    await call(`/pets?limit=1&q=${quoted}&t=${encodeURIComponent(ADMIN).replace(/-/g, '%2D')}`, { headers: bearer })
    await call(`/pets/${ADMIN}`, { headers: bearer })
    await call('/pets?limit=1', { headers: { authorization: `Bearer ${ADMIN}` } })
    await call('/pets', {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: `{"name":"${KEY.replace(/\//g, '\\/')}","categoryId":1,"note":"\\u0074eam\\/secret+key9f8e\\u003d=","admin":"${ADMIN}"}`,
    })
    const adminCall = async (path: string) => {
      const target = `${cli.url.replace(/\/v1$/, '')}/__sandbox${path}`
      const response = await fetch(target, { headers: { authorization: `Bearer ${ADMIN}` } })
      adminContract.check('GET', target, response)
      expect(response.status).toBe(200)
      return response.text()
    }
    const listed = await adminCall('/requests')
    const har = await adminCall('/requests.har')
    const harEntries = (
      JSON.parse(har) as {
        log: { entries: Array<{ request: { url: string; queryString: Array<{ value: string }> } }> }
      }
    ).log.entries
    expect(harEntries.length).toBeGreaterThanOrEqual(7)
    await sleep(200)
    const decodedQueries = harEntries.flatMap((entry) => entry.request.queryString.map((pair) => pair.value))
    const urls = harEntries.map((entry) => entry.request.url)
    // Each place read as a reader would: as shown, percent-decoded, JSON-parsed.
    const readings = [cli.output(), listed, har, ...answers, ...decodedQueries, ...urls].flatMap((shown) => {
      const all = [shown, shown.replace(/\\\//g, '/'), JSON.stringify(shown)]
      try {
        all.push(decodeURIComponent(shown))
      } catch {}
      try {
        all.push(JSON.stringify(JSON.parse(shown)).replace(/\\\//g, '/'))
      } catch {}
      return all
    })
    for (const reading of readings) {
      expect(reading).not.toContain(KEY)
      expect(reading).not.toContain(ADMIN)
      // Not even the admin token's first characters (D31), though the key shows its first four.
      expect(reading).not.toContain(ADMIN.slice(0, 12))
    }
    // The masked forms are there, so the check above looked at real entries.
    expect(listed).toContain('team…#')
    expect(har).toContain('apikey=team…#')
  } finally {
    await cli.stop()
  }
})
