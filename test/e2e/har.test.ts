import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const TOKEN = 'admin-token-for-har-tests'
const TEAM = 'team-alpha-secret-key-0001'
const OTHER = 'team-beta-secret-key-0002'
const dir = await mkdtemp(join(tmpdir(), 'petstore-har-'))
const keysFile = join(dir, 'keys.json')
await writeFile(
  keysFile,
  JSON.stringify({
    keys: [
      { key: TEAM, plan: 'pro' },
      { key: OTHER, plan: 'free' },
    ],
  }),
)
const { call, url } = useCliSandbox([
  '--admin-token',
  TOKEN,
  '--keys',
  keysFile,
  '--pets',
  '3',
  '--scenario',
  `${OTHER}=down`,
])
const adminContract = createAdminContractChecker()

async function admin(path: string): Promise<Response> {
  const target = `${url().replace(/\/v1$/, '')}/__sandbox${path}`
  const response = await fetch(target, { headers: { authorization: `Bearer ${TOKEN}` } })
  adminContract.check('GET', target, response)
  return response
}

it('serves the exchanges as HAR 1.2, headers and bodies included, with no key or admin token in full anywhere', async () => {
  const listed = await call('/pets?limit=2', { key: TEAM })
  const listedBody = await listed.text()
  const created = await call('/pets', {
    key: TEAM,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace': `copied ${OTHER}` },
    body: JSON.stringify({ name: `named after ${TEAM}`, categoryId: 2 }),
  })
  expect(created.status).toBe(201)
  expect((await call(`/pets?limit=1&api_key=${TEAM}`, { key: TEAM })).status).toBe(200)
  expect((await call('/pets/1', { key: OTHER })).status).toBe(503)
  expect((await call('/pets', { key: TOKEN })).status).toBe(401)

  const response = await admin('/requests.har')
  expect(response.status).toBe(200)
  const text = await response.text()
  for (const secret of [TEAM, OTHER, TOKEN]) expect(text).not.toContain(secret)
  const har = JSON.parse(text)
  expect(har.log.version).toBe('1.2')
  expect(har.log.creator.name).toContain('petstore-sandbox')
  const entries = har.log.entries
  expect(entries).toHaveLength(5)

  const [list, create, withQuery, down, wrong] = entries
  expect(list.request).toMatchObject({
    method: 'GET',
    url: `${url()}/pets?limit=2`,
    httpVersion: 'HTTP/1.1',
    queryString: [{ name: 'limit', value: '2' }],
  })
  const authorization = list.request.headers.find((header: { name: string }) => header.name === 'authorization')
  expect(authorization.value).toMatch(/^Bearer team…#[0-9a-f]{4}$/)
  expect(list.response.status).toBe(200)
  expect(list.response.content.text).toBe(listedBody)
  expect(list.response.content.mimeType).toBe('application/json; charset=utf-8')
  expect(list.response.headers.map((header: { name: string }) => header.name)).toEqual(
    expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
  )
  expect(Number.isNaN(Date.parse(list.startedDateTime))).toBe(false)

  expect(create.request.postData.mimeType).toBe('application/json')
  expect(JSON.parse(create.request.postData.text)).toEqual({
    name: expect.stringMatching(/^named after team…#[0-9a-f]{4}$/),
    categoryId: 2,
  })
  expect(create.request.headers.find((header: { name: string }) => header.name === 'x-trace').value).toMatch(
    /^copied team…#[0-9a-f]{4}$/,
  )
  expect(create.response.status).toBe(201)
  expect(JSON.parse(create.response.content.text).id).toBe(4)

  expect(withQuery.request.url).not.toContain(TEAM)
  expect(down._scenario).toBe('down')
  expect(down.response.status).toBe(503)
  expect(wrong.response.status).toBe(401)
  expect(wrong._key).toMatch(/^…#[0-9a-f]{4}$/)

  // One exchange by the id of its request log entry.
  const ids = (await (await admin('/requests')).json()).requests.map((entry: { id: string }) => entry.id)
  const one = await (await admin(`/requests.har?id=${encodeURIComponent(ids[1])}`)).json()
  expect(one.log.entries).toHaveLength(1)
  expect(one.log.entries[0].request.method).toBe('POST')
  expect((await admin('/requests.har?id=nothing-1')).status).toBe(404)
})

it('shows what a refused body said: a create the contract refuses and one that is not JSON keep their request bodies', async () => {
  const invalid = JSON.stringify({ name: '', categoryId: 2 })
  const refused = await call('/pets', {
    key: TEAM,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: invalid,
  })
  expect(refused.status).toBe(400)
  const broken = `{"name": "half of ${TEAM}`
  const unparsed = await call('/pets', {
    key: TEAM,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: broken,
  })
  expect(unparsed.status).toBe(400)

  const text = await (await admin('/requests.har')).text()
  expect(text).not.toContain(TEAM)
  const [first, second] = JSON.parse(text).log.entries.slice(-2)
  expect(first.response.status).toBe(400)
  expect(first.request.postData).toEqual({ mimeType: 'application/json', text: invalid })
  expect(JSON.parse(first.response.content.text).code).toBe('invalid_request')
  expect(second.response.status).toBe(400)
  expect(second.request.postData.text).toMatch(/^\{"name": "half of team…#[0-9a-f]{4}$/)
})

it("keeps one key's exchanges alone with ?key= (what a replay per key needs) and a scenario's with ?scenario=, in the HAR and the list alike", async () => {
  expect((await call('/pets?limit=1', { key: TEAM })).status).toBe(200)
  expect((await call('/pets?limit=1', { key: OTHER })).status).toBe(503)
  type Entry = { _key: string; _scenario?: string; request: { url: string }; response: { status: number } }
  const harOf = async (query: string) => {
    const response = await admin(`/requests.har${query}`)
    expect(response.status).toBe(200)
    const text = await response.text()
    for (const secret of [TEAM, OTHER, TOKEN]) expect(text).not.toContain(secret)
    return (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries
  }
  const all = await harOf('')
  const team = await harOf(`?key=${TEAM}`)
  const other = await harOf(`?key=${encodeURIComponent(OTHER)}`)
  // The two keys start alike (`team`): their masks differ by the fingerprint, and so do their exports.
  expect(new Set(team.map((entry) => entry._key)).size).toBe(1)
  expect(new Set(other.map((entry) => entry._key)).size).toBe(1)
  expect(team[0]!._key).not.toBe(other[0]!._key)
  expect(team).toEqual(all.filter((entry) => entry._key === team[0]!._key))
  expect(other).toEqual(all.filter((entry) => entry._key === other[0]!._key))
  expect(other.map((entry) => entry.response.status).every((status) => status === 503)).toBe(true)
  // A scenario's answers, and both filters at once.
  expect(await harOf('?scenario=down')).toEqual(other)
  expect(await harOf(`?key=${TEAM}&scenario=down`)).toEqual([])
  expect(await harOf(`?key=${TEAM}&limit=1`)).toEqual(team.slice(-1))
  const listed = (await (await admin(`/requests?key=${TEAM}`)).json()) as { requests: Array<{ key: string }> }
  expect(listed.requests.map((entry) => entry.key)).toEqual(team.map((entry) => entry._key))

  const unknownKey = await admin('/requests.har?key=team-alpha-secret-key-0003')
  expect(unknownKey.status).toBe(404)
  expect(((await unknownKey.json()) as { message: string }).message).toMatch(
    /^key: team-alpha-secret-key-0003 is no configured key; did you mean team…#[0-9a-f]{4}\?$/,
  )
  const unknownScenario = await admin('/requests.har?scenario=dwon')
  expect(unknownScenario.status).toBe(400)
  expect(((await unknownScenario.json()) as { message: string }).message).toBe(
    'scenario: unknown scenario "dwon"; did you mean down? known: empty, slow, flaky, down, sunset, rate-limited',
  )
})
