import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { crashSeed } from '../support/crash-seed.js'
import { useStateFileCalls } from '../support/state-file-calls.js'
import { runCli, startCli } from '../support/start-cli.js'

const { stateFile, create, getPet } = useStateFileCalls('petstore-state-')

it('keeps created pets across a restart, and ids continue above them', async () => {
  const file = await stateFile()
  const first = await startCli(['--log', 'off', '--pets', '3', '--state', file])
  const rex = await (await create(first, 'Rex')).json()
  expect(rex.id).toBe(4)
  await first.stop()
  const second = await startCli(['--log', 'off', '--pets', '3', '--state', file])
  try {
    expect(second.output()).toContain('1 created pet(s) restored')
    expect(await (await getPet(second, 4)).json()).toEqual(rex)
    expect((await (await create(second, 'Fido')).json()).id).toBe(5)
  } finally {
    await second.stop()
  }
})

it('makes an admin reset durable: after a restart the created pets stay gone and ids start over', async () => {
  const file = await stateFile()
  const args = ['--log', 'off', '--pets', '2', '--state', file, '--admin-token', 'admin-token-for-tests']
  const first = await startCli(args)
  expect((await create(first, 'Forgotten')).status).toBe(201)
  const reset = await fetch(`${first.url.replace(/\/v1$/, '')}/__sandbox/reset`, {
    method: 'POST',
    headers: { authorization: 'Bearer admin-token-for-tests' },
  })
  expect(reset.status).toBe(200)
  await first.stop('SIGKILL')
  const second = await startCli(args)
  try {
    expect((await getPet(second, 3)).status).toBe(404)
    expect((await (await create(second, 'Fresh')).json()).id).toBe(3)
  } finally {
    await second.stop()
  }
})

it('keeps every acknowledged pet when killed with SIGKILL at a random moment while creating', async () => {
  const file = await stateFile()
  const acknowledged = new Map<number, string>()
  const { seed, random } = crashSeed('SIGKILL while creating')
  let lastMaxId = 3
  for (let round = 0; round < 2; round++) {
    const cli = await startCli(['--log', 'off', '--pets', '3', '--state', file])
    // Ids only grow: the first pet of this run comes after everything acknowledged before.
    // The random moment is counted from the first acknowledged create of the run, so a slow,
    // shared machine still kills mid-stream rather than before anything was created.
    const killAfterMs = 50 + Math.floor(random() * 400)
    let killed = false
    let firstAcknowledged: () => void = () => undefined
    const started = new Promise<void>((resolve) => (firstAcknowledged = resolve))
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        let response: Response
        let pet: { id: number; name: string }
        try {
          response = await create(cli, `pet ${round}.${w}.${i}`)
          pet = (await response.json()) as { id: number; name: string }
        } catch (error) {
          // Only the kill may cut a request short; such a create was never acknowledged.
          if (!killed) throw error
          return
        }
        expect(response.status).toBe(201)
        expect(acknowledged.has(pet.id), `id ${pet.id} handed out twice`).toBe(false)
        expect(pet.id).toBeGreaterThan(lastMaxId)
        acknowledged.set(pet.id, pet.name)
        firstAcknowledged()
      }
    }
    const workers = [0, 1, 2, 3].map(worker)
    // A worker that fails before anything was acknowledged fails the test instead of hanging it.
    await Promise.race([started, Promise.all(workers)])
    await new Promise((resolve) => setTimeout(resolve, killAfterMs))
    killed = true
    const exit = await cli.stop('SIGKILL')
    expect(exit.signal, `killed after ${killAfterMs} ms (CRASH_SEED=${seed})`).toBe('SIGKILL')
    await Promise.all(workers)
    lastMaxId = Math.max(lastMaxId, ...acknowledged.keys())
  }
  expect(acknowledged.size).toBeGreaterThan(0)
  console.log(`crash test: ${acknowledged.size} acknowledged creates over two SIGKILLed runs`)

  const restarted = await startCli(['--log', 'off', '--pets', '3', '--state', file])
  try {
    const ids = [...acknowledged.keys()]
    for (let start = 0; start < ids.length; start += 50) {
      const batch = ids.slice(start, start + 50)
      const found = await Promise.all(batch.map(async (id) => ({ id, response: await getPet(restarted, id) })))
      for (const { id, response } of found) {
        expect(response.status, `acknowledged pet ${id} (CRASH_SEED=${seed})`).toBe(200)
        expect(await response.json()).toMatchObject({ id, name: acknowledged.get(id) })
      }
    }
    const next = await (await create(restarted, 'after the crash')).json()
    expect(next.id).toBeGreaterThan(lastMaxId)
  } finally {
    await restarted.stop()
  }
}, 60_000)

it('drops an incomplete last line (a crash mid-append) and keeps the rest', async () => {
  const file = await stateFile()
  await writeFile(
    file,
    '{"petstoreSandboxState":1,"seed":1,"pets":2}\n{"created":{"id":3,"name":"Kept","categoryId":1}}\n{"created":{"id":4,"na',
  )
  const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    expect((await getPet(cli, 3)).status).toBe(200)
    expect((await getPet(cli, 4)).status).toBe(404)
    expect((await (await create(cli, 'Next')).json()).id).toBe(4)
    expect(
      (await readFile(file, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toHaveLength(3)
  } finally {
    await cli.stop()
  }
})

it('refuses to start on a corrupt state file, says where, and leaves the file unchanged', async () => {
  const file = await stateFile()
  const corrupt =
    '{"petstoreSandboxState":1,"seed":1,"pets":2}\n{"created":{"id":3,"name":"Kept","categoryId":1}}\nnot json at all\n'
  await writeFile(file, corrupt)
  const result = await runCli(['start', '--port', '0', '--pets', '2', '--state', file])
  expect(result.code).toBe(1)
  expect(result.stderr).toContain(`state file ${file} is corrupt at line 3`)
  expect(result.stderr.trim().split('\n')[0]).toMatch(/^error: /)
  expect(await readFile(file, 'utf8')).toBe(corrupt)
})

it('refuses a state file made with another seed or pet count, and one it cannot read', async () => {
  const file = await stateFile()
  const content = '{"petstoreSandboxState":1,"seed":1,"pets":2}\n'
  await writeFile(file, content)
  const mismatch = await runCli(['start', '--port', '0', '--pets', '5', '--state', file])
  expect(mismatch.code).toBe(1)
  expect(mismatch.stderr).toContain('extends pets seeded with --seed 1 --pets 2; start with those')
  expect(await readFile(file, 'utf8')).toBe(content)

  const directory = join(await mkdtemp(join(tmpdir(), 'petstore-state-')), 'a-directory')
  await mkdir(directory)
  const unreadable = await runCli(['start', '--port', '0', '--state', directory])
  expect(unreadable.code).toBe(1)
  expect(unreadable.stderr).toContain(`cannot read state file ${directory}: EISDIR`)
})
