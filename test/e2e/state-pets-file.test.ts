import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { useStateFileCalls } from '../support/state-file-calls.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'
import { GIVEN_PETS, SERVED_PETS } from '../corpus/given-pets.js'

// `--pets-file` with `--state`: the journal extends the file's pets, and only those
// (docs/decisions.md, "which seeded pets a state extends").

const { contract, stateFile, create, getPet } = useStateFileCalls('petstore-state-pets-file-')

async function writePets(beside: string, name: string, pets: unknown, space?: number): Promise<string> {
  const file = join(dirname(beside), name)
  await writeFile(file, JSON.stringify(pets, null, space))
  return file
}

async function list(cli: CliProcess): Promise<unknown[]> {
  const url = `${cli.url}/pets?limit=100`
  const response = await fetch(url, { headers: { authorization: 'Bearer sandbox-enterprise-key' } })
  contract.check('GET', url, response)
  expect(response.status).toBe(200)
  return (await response.json()) as unknown[]
}

it('serves the file pets and the created ones after a graceful restart and after kill -9, ids continuing after the file last id', async () => {
  const state = await stateFile()
  const pets = await writePets(state, 'pets.json', GIVEN_PETS)
  const args = ['--log', 'off', '--pets-file', pets, '--state', state]

  const first = await startCli(args)
  expect(await list(first)).toEqual(SERVED_PETS)
  const rex = await (await create(first, 'Rex')).json()
  expect(rex).toEqual({ id: 12, name: 'Rex', categoryId: 2, status: 'available' })
  // A bad create is a 400 that takes no id and writes nothing.
  const bad = await fetch(`${first.url}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'No category' }),
  })
  contract.check('POST', `${first.url}/pets`, bad)
  expect(bad.status).toBe(400)
  expect((await first.stop()).code).toBe(0)
  const header = JSON.parse((await readFile(state, 'utf8')).split('\n')[0]!)
  expect(header).toEqual({ petstoreSandboxState: 1, seed: 1, pets: 11, given: expect.stringMatching(/^[0-9a-f]{64}$/) })

  const second = await startCli(args)
  expect(second.output()).toContain(`State file ${state}: 1 created pet(s) restored`)
  expect(await list(second)).toEqual([...SERVED_PETS, rex])
  const fido = await (await create(second, 'Fido')).json()
  expect(fido.id).toBe(13)
  expect((await second.stop('SIGKILL')).signal).toBe('SIGKILL')

  const third = await startCli(args)
  try {
    expect(third.output()).toContain('2 created pet(s) restored')
    expect(await list(third)).toEqual([...SERVED_PETS, rex, fido])
    expect(await (await getPet(third, 13)).json()).toEqual(fido)
    expect((await getPet(third, 2)).status).toBe(404)
    expect((await (await create(third, 'Kit')).json()).id).toBe(14)
  } finally {
    await third.stop()
  }
})

it('takes the same pets written otherwise, and another --seed, as the same pets', async () => {
  const state = await stateFile()
  const pets = await writePets(state, 'pets.json', GIVEN_PETS)
  const first = await startCli(['--log', 'off', '--pets-file', pets, '--state', state])
  const rex = await (await create(first, 'Rex')).json()
  await first.stop()
  // Pretty-printed, its implicit ids written out: the pets served are the same.
  const rewritten = await writePets(state, 'rewritten.json', SERVED_PETS, 2)
  const second = await startCli(['--log', 'off', '--pets-file', rewritten, '--state', state, '--seed', '7'])
  try {
    expect(await list(second)).toEqual([...SERVED_PETS, rex])
    expect((await (await create(second, 'Fido')).json()).id).toBe(13)
  } finally {
    await second.stop()
  }
})

it('refuses, in one line naming what changed, a restart with other pets, other ids or generated pets, and leaves the file untouched', async () => {
  const state = await stateFile()
  const pets = await writePets(state, 'pets.json', GIVEN_PETS)
  const first = await startCli(['--log', 'off', '--pets-file', pets, '--state', state])
  expect((await create(first, 'Rex')).status).toBe(201)
  await first.stop()
  const journal = await readFile(state, 'utf8')
  const digest = (JSON.parse(journal.split('\n')[0]!) as { given: string }).given.slice(0, 12)

  // Ending at the same id, as a silent mix would.
  const otherPets = await writePets(state, 'other-pets.json', [
    { name: 'Pixel', categoryId: 7 },
    ...GIVEN_PETS.slice(1),
  ])
  const otherIds = await writePets(state, 'other-ids.json', [{ id: 9, ...GIVEN_PETS[0] }, ...GIVEN_PETS.slice(1)])
  const refusals: Array<[string[], string]> = [
    [['--pets-file', otherPets], `not those of this one (sha256 `],
    [['--pets-file', otherIds], `not those of this one (sha256 `],
    [['--pets', '11'], 'not generated ones; start with that --pets-file'],
  ]
  for (const [args, changed] of refusals) {
    const refused = await runCli(['start', '--port', '0', '--log', 'off', '--state', state, ...args])
    expect(refused.code).toBe(1)
    const lines = refused.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      `error: state file ${state} extends the pets of a --pets-file (sha256 ${digest}…), ${changed}`,
    )
    expect(lines[0]).toMatch(/, or use another --state file$/)
    expect(refused.stdout).not.toContain('Listening on')
    expect(await readFile(state, 'utf8')).toBe(journal)
  }
})

it('refuses a pets file on a state of generated pets ending at the same id; a state written without a digest still opens', async () => {
  const state = await stateFile()
  // A header as written before the digest existed, for generated pets.
  const journal = '{"petstoreSandboxState":1,"seed":1,"pets":3}\n{"created":{"id":4,"name":"Kept","categoryId":1}}\n'
  await writeFile(state, journal)
  const pets = await writePets(state, 'pets.json', [
    { name: 'Ace', categoryId: 2 },
    { name: 'Pixel', categoryId: 7, status: 'sold' },
    { name: 'Olive', categoryId: 3 },
  ])
  const refused = await runCli(['start', '--port', '0', '--log', 'off', '--state', state, '--pets-file', pets])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim()).toBe(
    `error: state file ${state} extends pets seeded with --seed 1 --pets 3, not those of a --pets-file; start with those, or use another --state file`,
  )
  expect(await readFile(state, 'utf8')).toBe(journal)

  const generated = await startCli(['--log', 'off', '--pets', '3', '--state', state])
  try {
    expect(await (await getPet(generated, 4)).json()).toEqual({ id: 4, name: 'Kept', categoryId: 1 })
    expect((await (await create(generated, 'Next')).json()).id).toBe(5)
  } finally {
    await generated.stop()
  }
  expect((await readFile(state, 'utf8')).split('\n')[0]).toBe('{"petstoreSandboxState":1,"seed":1,"pets":3}')
})
