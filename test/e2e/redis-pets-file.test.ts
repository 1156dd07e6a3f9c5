import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runCli, startCli } from '../support/start-cli.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'
import { GIVEN_PETS, SERVED_PETS } from '../corpus/given-pets.js'

// `--pets-file` with `--redis`: every replica serves the file's pets, and a replica started with
// other pets is refused (docs/decisions.md, "which seeded pets a state extends").

const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-pets-file-'))
const petsFile = (name: string, pets: unknown, space?: number) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(pets, null, space))
  return file
}
const PETS_FILE = petsFile('pets.json', GIVEN_PETS)

const { call, admin, contract, redis, startReplica } = useRedisReplicas(2, ['--pets-file', PETS_FILE])
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const list = async (replica: number) => {
  const response = await call(replica, '/pets?limit=100')
  expect(response.status).toBe(200)
  return response.json()
}

it('serves the file pets on both replicas; a pet created on one is read on the other with the id after the file last; a reset brings the file back', async () => {
  expect(await list(0)).toEqual(SERVED_PETS)
  expect(await list(1)).toEqual(SERVED_PETS)
  const created = await call(0, '/pets', json({ name: 'Rex', categoryId: 4 }))
  expect(created.status).toBe(201)
  const rex = await created.json()
  expect(rex).toEqual({ id: 12, name: 'Rex', categoryId: 4, status: 'available' })
  expect(await (await call(1, '/pets/12')).json()).toEqual(rex)
  expect(await list(1)).toEqual([...SERVED_PETS, rex])
  expect((await (await call(1, '/pets', json({ name: 'Fido', categoryId: 2 }))).json()).id).toBe(13)
  // Bad input on a replica is a 400 that takes no id.
  const bad = await call(1, '/pets', json({ name: 'Rex', categoryId: 0 }))
  expect(bad.status).toBe(400)
  expect((await call(0, '/pets/2')).status).toBe(404)

  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  expect(await list(0)).toEqual(SERVED_PETS)
  expect((await (await call(0, '/pets', json({ name: 'After', categoryId: 1 }))).json()).id).toBe(12)
})

it('lets in a replica with the same pets written otherwise, or another --seed', async () => {
  const rewritten = petsFile('rewritten.json', SERVED_PETS, 2)
  const joined = await startReplica(['--pets-file', rewritten, '--seed', '7'])
  try {
    expect(joined.output()).toContain(`  pets: 3 from ${rewritten}`)
    const url = `${joined.url}/pets?limit=100`
    const listed = await fetch(url, { headers: { authorization: 'Bearer sandbox-enterprise-key' } })
    contract.check('GET', url, listed)
    expect(listed.status).toBe(200)
    expect(((await listed.json()) as Array<{ id: number }>).slice(0, 3)).toEqual(SERVED_PETS)
  } finally {
    await joined.stop()
  }
})

it('refuses, in one line naming what changed, a replica with another pets file, other ids or generated pets on the same prefix', async () => {
  const otherPets = petsFile('other-pets.json', [{ name: 'Pixel', categoryId: 7 }, ...GIVEN_PETS.slice(1)])
  const otherIds = petsFile('other-ids.json', [{ id: 9, ...GIVEN_PETS[0] }, ...GIVEN_PETS.slice(1)])
  const refusals: Array<[string[], RegExp]> = [
    [
      ['--pets-file', otherPets],
      /holds the pets of a --pets-file \(sha256 [0-9a-f]{12}…\), not those of this one \(sha256 [0-9a-f]{12}…: /,
    ],
    [['--pets-file', otherIds], /holds the pets of a --pets-file \(sha256 [0-9a-f]{12}…\), not those of this one /],
    [
      ['--pets', '11'],
      /holds the pets of a --pets-file \(sha256 [0-9a-f]{12}…\), not generated ones; start with that --pets-file, or use another --redis-prefix$/,
    ],
  ]
  for (const [args, message] of refusals) {
    const refused = await runCli(['start', '--port', '0', '--log', 'off', '--redis', redis().url, ...args])
    expect(refused.code).toBe(1)
    const lines = refused.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(redis().url)
    expect(lines[0]).toMatch(message)
    expect(refused.stdout).not.toContain('Listening on')
  }
  // The replicas that were there still serve the file's pets.
  expect((await list(1)).slice(0, 3)).toEqual(SERVED_PETS)
})

it('refuses a pets file on a prefix seeded with generated pets ending at the same id', async () => {
  const generated = await startCli([
    '--log',
    'off',
    '--redis',
    redis().url,
    '--redis-prefix',
    'generated:',
    '--pets',
    '11',
  ])
  try {
    const refused = await runCli([
      'start',
      '--port',
      '0',
      '--log',
      'off',
      '--redis',
      redis().url,
      '--redis-prefix',
      'generated:',
      '--pets-file',
      PETS_FILE,
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim()).toMatch(
      /^error: Redis at redis:\/\/127\.0\.0\.1:\d+ \(prefix generated:\) holds pets seeded with --seed 1 --pets 11, not those of a --pets-file; start with those, or use another --redis-prefix$/,
    )
  } finally {
    await generated.stop()
  }
})
