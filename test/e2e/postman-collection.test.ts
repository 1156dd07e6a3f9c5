import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { contractDocument } from '../support/contract.js'
import { isPageAnswer } from '../support/pages-contract.js'
import { startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// newman runs the collection itself in the consumer matrix (test/consumers/postman); here each
// request is sent as the collection spells it, so its example values are held to the contract.
const { call, url, contract } = useCliSandbox(['--pets', '3'])
const origin = () => url().replace(/\/v1$/, '')

interface Item {
  name: string
  request: {
    method: string
    auth?: { type: string; bearer: Array<{ key: string; value: string }> }
    header: Array<{ key: string; value: string }>
    url: { raw: string }
    body?: { raw: string }
  }
  event: Array<{ listen: string; script: { exec: string[] } }>
}
interface Collection {
  info: { schema: string }
  auth: { bearer: Array<{ value: string }> }
  variable: Array<{ key: string; value: string }>
  item: Item[]
}

async function collection(base = origin()): Promise<Collection> {
  const response = await fetch(`${base}/postman.json`)
  expect(isPageAnswer('GET', response.url, response)).toBe(true)
  contract.check('GET', response.url, response)
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  return response.json()
}

const operationIds = Object.values(
  contractDocument.paths as Record<string, Record<string, { operationId: string }>>,
).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId))

it('serves a Postman v2.1 collection of every operation, each with a test, baseUrl and session set', async () => {
  const served = await collection()
  expect(served.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json')
  expect(Object.fromEntries(served.variable.map(({ key, value }) => [key, value]))).toMatchObject({
    baseUrl: url(),
    session: '',
  })
  expect(served.item.map((item) => /\((\w+)\)$/.exec(item.name)?.[1]).sort()).toEqual([...operationIds].sort())
  for (const item of served.item) {
    expect(item.request.url.raw.startsWith('{{baseUrl}}/'), item.name).toBe(true)
    expect(item.request.header).toContainEqual({ key: 'X-Sandbox-Session', value: '{{session}}' })
    expect(item.event.find((event) => event.listen === 'test')?.script.exec.join('\n')).toMatch(
      /pm\.test\('answers \d{3}'/,
    )
  }
  // Each operation spends another demo key's quota, so a run of many iterations reaches no limit.
  const keys = served.item.map((item) => item.request.auth?.bearer[0]?.value)
  expect(new Set(keys).size).toBe(served.item.length)
  for (const key of keys) expect(key).toMatch(/^sandbox-(free|pro|business|enterprise)-key$/)
})

it("answers each request as its test expects, in a session of the run's own, with ids the collection made first", async () => {
  const served = await collection()
  const variables: Record<string, string> = { baseUrl: url(), session: 'postman-e2e' }
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => variables[name] ?? '')
  for (const item of served.item) {
    const headers = Object.fromEntries(item.request.header.map(({ key, value }) => [key, fill(value)]))
    const response = await call(fill(item.request.url.raw), {
      method: item.request.method,
      key: item.request.auth!.bearer[0]!.value,
      headers,
      ...(item.request.body === undefined ? {} : { body: item.request.body.raw }),
    })
    const script = item.event[0]!.script.exec.join('\n')
    expect(response.status, item.name).toBe(Number(/answers (\d{3})/.exec(script)![1]))
    const body = await response.json()
    for (const [, variable, field] of script.matchAll(
      /collectionVariables\.set\("(\w+)", String\(pm\.response\.json\(\)\["(\w+)"\]\)\)/g,
    )) {
      variables[variable!] = String(body[field!])
    }
  }
  // The pet the collection created is in its session alone.
  expect(variables.petId).toBe('4')
  expect((await call(`/pets/${variables.petId}`)).status).toBe(404)
  expect((await call(`/pets/${variables.petId}`, { headers: { 'x-sandbox-session': 'postman-e2e' } })).status).toBe(200)
})

it('points baseUrl at the host the client used', async () => {
  const port = new URL(url()).port
  const served = await collection(`http://localhost:${port}`)
  expect(served.variable.find(({ key }) => key === 'baseUrl')?.value).toBe(`http://localhost:${port}/v1`)
})

it('with a keys file: no key in the collection, every request sends {{apiKey}}', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-postman-'))
  await writeFile(join(directory, 'keys.json'), JSON.stringify({ keys: [{ key: 'team-secret-key', plan: 'pro' }] }))
  const own = await startCli(['--log', 'off', '--pets', '1', '--keys', join(directory, 'keys.json')])
  try {
    const response = await fetch(`${own.url.replace(/\/v1$/, '')}/postman.json`)
    contract.check('GET', response.url, response)
    const text = await response.text()
    expect(text).not.toContain('team-secret-key')
    const served = JSON.parse(text) as Collection
    expect(served.auth.bearer[0]?.value).toBe('{{apiKey}}')
    for (const item of served.item) expect(item.request.auth, item.name).toBeUndefined()
  } finally {
    await own.stop()
  }
})
