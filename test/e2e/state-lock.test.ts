import { spawn } from 'node:child_process'
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { crashSeed } from '../support/crash-seed.js'
import { useStateFileCalls } from '../support/state-file-calls.js'
import { BIN, runCli, startCli } from '../support/start-cli.js'

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
  const { seed, random } = crashSeed('kill -9 and the lock')
  for (let round = 0; round < 4; round++) {
    const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file])
    // Some rounds die right after start (the lock just taken), others in the middle of creates.
    const killAfterMs = Math.floor(random() * (round % 2 === 0 ? 50 : 400))
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
    for (const [id, name] of acknowledged)
      expect(await (await getPet(restarted, id)).json(), `pet ${id} (CRASH_SEED=${seed})`).toMatchObject({ id, name })
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
  expect(result.stderr.trim()).toBe(
    `error: state file ${file} is read-only (mode 444); make it writable, or start with another --state file`,
  )
  expect(await readFile(file, 'utf8')).toBe(content)
  expect((await stat(file)).mode & 0o777).toBe(0o444)
  expect((await readdir(join(file, '..'))).sort()).toEqual(['state.jsonl'])
})

it('keeps the mode of the state file it compacts, and says when it dropped a torn last line', async () => {
  const file = await stateFile()
  await writeFile(
    file,
    '{"petstoreSandboxState":1,"seed":1,"pets":2}\n{"created":{"id":3,"name":"Kept","categoryId":1}}\n{"created":{"id":4,"na',
  )
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

/** The state letter /proc gives a process (Z for a zombie), after the command name in parentheses. */
async function procState(pid: number): Promise<string> {
  const line = await readFile(`/proc/${pid}/stat`, 'utf8')
  return line.slice(line.lastIndexOf(')') + 2, line.lastIndexOf(')') + 3)
}

it.runIf(process.platform === 'linux')(
  'takes over at once from a holder killed with kill -9 that is still a zombie, its parent not reaping it',
  async () => {
    const file = await stateFile()
    // sh starts the CLI in the background, then becomes `sleep`, which never waits for its child:
    // the CLI killed with kill -9 stays a zombie, its pid still answering kill(pid, 0).
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`
    const command = [process.execPath, BIN, 'start', '--port', '0', '--log', 'off', '--pets', '2', '--state', file]
      .map(quote)
      .join(' ')
    const parent = spawn('sh', ['-c', `${command} & exec sleep 60`], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        parent.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const match = /Listening on (http:\/\/\S+\/v1)/.exec(output)
          if (match) resolve(match[1]!)
        })
        parent.on('exit', () => reject(new Error(`the CLI did not start:\n${output}`)))
      })
      const holder = { url } as Parameters<typeof create>[0]
      const created = (await (await create(holder, 'Before the kill')).json()) as { id: number }
      const { pid } = JSON.parse(await readFile(`${file}.lock-owner`, 'utf8')) as { pid: number }
      process.kill(pid, 'SIGKILL')
      while ((await procState(pid)) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 10))

      const next = await startCli(['--log', 'off', '--pets', '2', '--state', file])
      try {
        expect(await procState(pid)).toBe('Z')
        expect(await (await getPet(next, created.id)).json()).toMatchObject({ name: 'Before the kill' })
      } finally {
        await next.stop()
      }
    } finally {
      parent.kill('SIGKILL')
    }
  },
  30_000,
)
