import { execFileSync } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli } from '../support/start-cli.js'

// Each test runs the CLI several times in a row; on a busy machine that takes well over the default.
vi.setConfig({ testTimeout: 120_000 })

const contract = createContractChecker()

async function petsFile(content: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-pets-')), 'pets.json')
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('authorization', 'Bearer sandbox-enterprise-key')
  const response = await fetch(url, { ...init, headers })
  contract.check(init.method ?? 'GET', url, response)
  return response
}

it('serves the pets of --pets-file instead of generated ones, ids ascending in file order where absent, creates after the last', async () => {
  const file = await petsFile([
    { name: 'Biscuit', categoryId: 2, status: 'sold' },
    { name: 'Pixel', categoryId: 7 },
    { id: 10, name: 'Mango', categoryId: 1, status: 'pending' },
    { name: 'Olive', categoryId: 3, status: 'available' },
  ])
  const cli = await startCli(['--log', 'off', '--pets-file', file])
  try {
    expect(cli.output()).toContain(`  pets: 4 from ${file}`)
    const listed = await call(`${cli.url}/pets?limit=100`)
    expect(await listed.json()).toEqual([
      { id: 1, name: 'Biscuit', categoryId: 2, status: 'sold' },
      { id: 2, name: 'Pixel', categoryId: 7 },
      { id: 10, name: 'Mango', categoryId: 1, status: 'pending' },
      { id: 11, name: 'Olive', categoryId: 3, status: 'available' },
    ])
    const created = await call(`${cli.url}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Newcomer', categoryId: 4 }),
    })
    expect(created.status).toBe(201)
    expect((await created.json()).id).toBe(12)
    expect((await call(`${cli.url}/pets/3`)).status).toBe(404)
  } finally {
    await cli.stop()
  }
})

it('stops the start on a bad pet with one line naming the file, the index and the field, and nothing listens', async () => {
  const bad = await petsFile([
    { name: 'Biscuit', categoryId: 2 },
    { name: 'Pixel', categoryId: 7 },
    { name: 'Mango', categoryId: 0 },
  ])
  const result = await runCli(['start', '--port', '0', '--pets-file', bad])
  expect(result.code).toBe(1)
  expect(result.stderr.trim()).toBe(`error: pets file ${bad}: [2].categoryId: must be an integer ≥ 1`)
  expect(result.stdout).not.toContain('Listening on')

  const cases: Array<[unknown, string]> = [
    [{ pets: [] }, 'must be a JSON array of pets'],
    [[{ categoryId: 1 }], '[0].name: is required (a pet is id?, name, categoryId, status?)'],
    [[{ name: '   ', categoryId: 1 }], '[0].name: must be a string of 1 to 200 characters, not blank'],
    [[{ name: 'Ace', categoryId: 1, status: 'lost' }], '[0].status: must be one of available, pending, sold'],
    [
      [{ name: 'Ace', categoryId: 1, colour: 'red' }],
      '[0].colour: is not a field of a pet; its fields are id, name, categoryId, status',
    ],
    [
      [
        { id: 5, name: 'Ace', categoryId: 1 },
        { id: 5, name: 'Bo', categoryId: 1 },
      ],
      '[1].id: must be above 5, the id before it (ids ascend in the order given)',
    ],
    [[{ name: 'Ace', categoryId: '1' }], '[0].categoryId: must be an integer ≥ 1'],
  ]
  for (const [content, message] of cases) {
    const file = await petsFile(content)
    const run = await runCli(['start', '--port', '0', '--pets-file', file])
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(`error: pets file ${file}: ${message}`)
  }
  const notJson = await petsFile('[{"name": "Ace",')
  expect((await runCli(['start', '--port', '0', '--pets-file', notJson])).stderr).toContain(
    `error: pets file ${notJson}: not valid JSON`,
  )
  const both = await runCli(['start', '--port', '0', '--pets', '3', '--pets-file', bad])
  expect(both.stderr.trim()).toBe(
    'error: --pets and --pets-file cannot be combined: the file says which pets there are',
  )
})

it('holds the pets file to what a request body is held to: valid UTF-8 and no key twice in one object (D9)', async () => {
  const invalid = await petsFile('')
  await writeFile(
    invalid,
    Buffer.concat([Buffer.from('[{"name":"Ace'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}]')]),
  )
  const twice = await petsFile('[{"name":"Ace","categoryId":1},\n {"name":"Rex","categoryId":2,"name":"Max"}]')
  const marked = await petsFile('\ufeff[{"name":"Ace","categoryId":1}]')
  for (const [file, message] of [
    [invalid, 'not valid UTF-8'],
    [twice, 'has a key twice in one object, at line 2, column 31'],
    [marked, 'starts with a byte order mark; save it as UTF-8 without one'],
  ] as const) {
    const run = await runCli(['start', '--port', '0', '--pets-file', file])
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(`error: pets file ${file}: ${message}`)
  }
})

it('refuses a FIFO, a directory or a device as the pets file at once, rather than waiting on it', async () => {
  const fifo = join(await mkdtemp(join(tmpdir(), 'petstore-pets-')), 'pets.fifo')
  execFileSync('mkfifo', [fifo])
  const directory = await mkdtemp(join(tmpdir(), 'petstore-pets-'))
  for (const [file, kind] of [
    [fifo, 'a FIFO'],
    [directory, 'a directory'],
    ['/dev/zero', 'a device'],
  ] as const) {
    // runCli kills a run that has not ended within 15 s: code null.
    const run = await runCli(['start', '--port', '0', '--pets-file', file])
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(`error: cannot read pets file ${file}: not a regular file (${kind})`)
  }
})

it('reads the pets file from PETSTORE_SANDBOX_PETS_FILE', async () => {
  const file = await petsFile([{ name: 'Solo', categoryId: 1 }])
  const cli = await startCli(['--log', 'off'], { PETSTORE_SANDBOX_PETS_FILE: file })
  try {
    expect(await (await call(`${cli.url}/pets`)).json()).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }])
  } finally {
    await cli.stop()
  }
})
