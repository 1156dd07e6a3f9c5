import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { useStateFileCalls } from '../support/state-file-calls.js'
import { runCli, startCli } from '../support/start-cli.js'

const { stateFile, create, getPet } = useStateFileCalls('petstore-lock-')

it('refuses a second process on a state file a live one holds, naming its pid, and leaves the file alone', async () => {
  const file = await stateFile()
  const holder = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    expect((await create(holder, 'Held')).status).toBe(201)
    const before = await readFile(file, 'utf8')
    const second = await runCli(['start', '--port', '0', '--pets', '2', '--state', file])
    expect(second.code).toBe(1)
    expect(second.stderr.trim().split('\n')).toEqual([
      `error: state file ${file} is in use by pid ${holder.child.pid}; stop it first, or start with another --state file`,
    ])
    expect(await readFile(file, 'utf8')).toBe(before)
    // The holder still writes: a create after the refusal is journalled and acknowledged.
    expect((await create(holder, 'After')).status).toBe(201)
    expect(await readFile(file, 'utf8')).toContain('"name":"After"')
  } finally {
    await holder.stop()
  }
  // A graceful stop releases the lock: the next start takes the file at once.
  const next = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    expect(await (await getPet(next, 4)).json()).toMatchObject({ name: 'After' })
  } finally {
    await next.stop()
  }
  expect((await readdir(join(file, '..'))).sort()).toEqual(['state.jsonl'])
})

it('is not blocked by the lock of a process killed with kill -9 at a random moment, and loses no acknowledged pet', async () => {
  const file = await stateFile()
  const acknowledged = new Map<number, string>()
  for (let round = 0; round < 4; round++) {
    const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file])
    // Some rounds die right after start (the lock just taken), others in the middle of creates.
    const killAfterMs = Math.floor(Math.random() * (round % 2 === 0 ? 50 : 400))
    let killed = false
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const response = await create(cli, `pet ${round}.${w}.${i}`)
          const pet = (await response.json()) as { id: number; name: string }
          expect(response.status).toBe(201)
          acknowledged.set(pet.id, pet.name)
        } catch (error) {
          if (!killed) throw error
        }
      }
    }
    const workers = [0, 1, 2].map(worker)
    await new Promise((resolve) => setTimeout(resolve, killAfterMs))
    killed = true
    expect((await cli.stop('SIGKILL')).signal).toBe('SIGKILL')
    await Promise.all(workers)
  }
  const restarted = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    for (const [id, name] of acknowledged) expect(await (await getPet(restarted, id)).json(), `pet ${id}`).toMatchObject({ id, name })
  } finally {
    await restarted.stop()
  }
}, 90_000)

it('refuses a read-only state file and leaves it as it was', async () => {
  const file = await stateFile()
  const content = '{"petstoreSandboxState":1,"seed":1,"pets":2}\n{"created":{"id":3,"name":"Kept","categoryId":1}}\n'
  await writeFile(file, content)
  await chmod(file, 0o444)
  const result = await runCli(['start', '--port', '0', '--pets', '2', '--state', file])
  expect(result.code).toBe(1)
  expect(result.stderr.trim()).toBe(`error: state file ${file} is read-only (mode 444); make it writable, or start with another --state file`)
  expect(await readFile(file, 'utf8')).toBe(content)
  expect((await stat(file)).mode & 0o777).toBe(0o444)
  expect((await readdir(join(file, '..'))).sort()).toEqual(['state.jsonl'])
})

it('keeps the mode of the state file it compacts, and says when it dropped a torn last line', async () => {
  const file = await stateFile()
  await writeFile(file, '{"petstoreSandboxState":1,"seed":1,"pets":2}\n{"created":{"id":3,"name":"Kept","categoryId":1}}\n{"created":{"id":4,"na')
  await chmod(file, 0o600)
  const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    expect(cli.output()).toContain(
      `State file ${file}: 1 created pet(s) restored; dropped an incomplete last line (a write cut short by a crash, never acknowledged)`,
    )
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  } finally {
    await cli.stop()
  }
})
