import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { refused } from '../support/raw-http.js'
import { expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { consumerProject } from '../support/consumer-project.js'
import { contractViolations } from '../support/contract.js'
import { BIN } from '../support/start-cli.js'

// `petstore-sandbox run [start's options] -- <command>`: the command reaches the sandbox through
// PETSTORE_SANDBOX_URL, run ends as it does, and nothing is left on the port (D40).

/** What a command run under `run` prints of one call: the answer whole, for the test to check against the contract. */
const CALL = `
const call = async (url, init) => {
  const response = await fetch(url, init)
  return { url, status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
}
`

interface Ran {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Spawns `run` (directly, or as `npx petstore-sandbox run` in a consumer project) and collects its output. */
function spawnRun(args: string[], options: { npx?: string } = {}) {
  const child: ChildProcess =
    options.npx === undefined
      ? spawn(process.execPath, [BIN, 'run', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, PORT: undefined },
        })
      : spawn('npx', ['petstore-sandbox', 'run', ...args], {
          cwd: options.npx,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, PORT: undefined },
        })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const ended = new Promise<Ran>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  /** Resolves once `pattern` is in the output so far. */
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const found = pattern.exec(stdout + stderr)
        if (found) {
          child.stdout!.off('data', look)
          child.stderr!.off('data', look)
          resolve(found)
        }
      }
      child.stdout!.on('data', look)
      child.stderr!.on('data', look)
      void ended.then(() => reject(new Error(`ended before ${pattern}:\n${stdout}\n${stderr}`)))
      look()
    })
  return { child, ended, waitFor }
}

/** Where the sandbox listened, from its banner on stderr. */
const listenedOn = (stderr: string) => /Listening on (http:\/\/\S+\/v1)/.exec(stderr)![1]!

/** Whether a process is running (a zombie waiting for its parent to read it counts as ended). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

it('runs the command once the sandbox is ready, with PETSTORE_SANDBOX_URL; stdout is the command’s alone; then frees the port', async () => {
  const script = `${CALL}
const url = process.env.PETSTORE_SANDBOX_URL
const answers = [await call(url + '/pets?limit=2', { headers: { authorization: 'Bearer sandbox-free-key' } }), await call(url + '/pets/1')]
console.log(JSON.stringify({ url, admin: process.env.PETSTORE_SANDBOX_ADMIN_TOKEN ?? null, run: process.env.PETSTORE_SANDBOX_RUN_ID, answers }))`
  const ran = await spawnRun([
    '--port',
    '0',
    '--pets',
    '3',
    '--log',
    'off',
    '--',
    'node',
    '--input-type=module',
    '-e',
    script,
  ]).ended
  expect(ran.code, ran.stderr).toBe(0)
  const printed = JSON.parse(ran.stdout) as {
    url: string
    admin: string | null
    run: string
    answers: Array<{ url: string; status: number; headers: Record<string, string>; body: string }>
  }
  expect(printed.url).toBe(listenedOn(ran.stderr))
  expect(printed.admin).toBeNull()
  // A run id for the command's test runner (D43), a session name's prefix.
  expect(printed.run).toMatch(/^run-[0-9a-f-]{13}$/)
  for (const answer of printed.answers) {
    expect(
      await contractViolations(
        'GET',
        answer.url,
        new Response(answer.body, { status: answer.status, headers: answer.headers }),
      ),
    ).toEqual([])
  }
  expect(printed.answers.map((answer) => answer.status)).toEqual([200, 401])
  expect((JSON.parse(printed.answers[0]!.body) as Array<{ id: number }>).map((pet) => pet.id)).toEqual([1, 2])
  expect(await refused(printed.url)).toBe(true)
}, 60_000)

it('gives the command the admin token too, when the sandbox has one', async () => {
  const token = 'run-admin-token-for-tests'
  const script = `${CALL}
const answer = await call(process.env.PETSTORE_SANDBOX_URL.replace(/\\/v1$/, '/__sandbox/state'), { headers: { authorization: 'Bearer ' + process.env.PETSTORE_SANDBOX_ADMIN_TOKEN } })
console.log(JSON.stringify(answer))`
  const ran = await spawnRun([
    '--port',
    '0',
    '--pets',
    '2',
    '--log',
    'off',
    '--admin-token',
    token,
    '--',
    'node',
    '--input-type=module',
    '-e',
    script,
  ]).ended
  expect(ran.code, ran.stderr).toBe(0)
  const answer = JSON.parse(ran.stdout) as {
    url: string
    status: number
    headers: Record<string, string>
    body: string
  }
  expect(
    await adminContractViolations(
      'GET',
      answer.url,
      new Response(answer.body, { status: answer.status, headers: answer.headers }),
    ),
  ).toEqual([])
  expect(answer.status).toBe(200)
  expect(ran.stdout).not.toContain('Listening on')
}, 60_000)

it.each([
  ['directly', false],
  ['under npx', true],
] as const)(
  'reaches the sandbox and ends as the command did, %s: its exit code, a non-zero one, and a signal; the port freed each time',
  async (_, underNpx) => {
    const cwd = underNpx ? await consumerProject() : undefined
    const runWith = (script: string) =>
      spawnRun(
        ['--port', '0', '--pets', '1', '--log', 'off', '--', 'node', '--input-type=module', '-e', script],
        cwd === undefined ? {} : { npx: cwd },
      ).ended
    const ok = await runWith(`${CALL}
console.log(JSON.stringify(await call(process.env.PETSTORE_SANDBOX_URL + '/pets', { headers: { authorization: 'Bearer sandbox-free-key' } })))`)
    expect(ok.code, ok.stderr).toBe(0)
    const answer = JSON.parse(ok.stdout) as {
      url: string
      status: number
      headers: Record<string, string>
      body: string
    }
    expect(
      await contractViolations(
        'GET',
        answer.url,
        new Response(answer.body, { status: answer.status, headers: answer.headers }),
      ),
    ).toEqual([])
    expect(answer.status).toBe(200)
    expect(await refused(listenedOn(ok.stderr))).toBe(true)
    const failed = await runWith('process.exit(3)')
    expect(failed.code).toBe(3)
    expect(await refused(listenedOn(failed.stderr))).toBe(true)
    const killed = await runWith("process.kill(process.pid, 'SIGTERM')")
    // Directly, run ends by the same signal; npm's shell reports it as 128 + 15, as a shell does.
    if (underNpx) expect(killed.code).toBe(143)
    else expect(killed.signal).toBe('SIGTERM')
    expect(await refused(listenedOn(killed.stderr))).toBe(true)
  },
  90_000,
)

it('ends with 128 + n for a signal with side effects, never raising it on itself: SIGUSR1 opens no inspector', async () => {
  const { ended } = spawnRun(['--port', '0', '--pets', '1', '--log', 'off', '--', 'sh', '-c', 'kill -USR1 $$'])
  const ran = await ended
  // Raised on run itself, SIGUSR1 would have Node listen for a debugger on 127.0.0.1:9229.
  expect(ran.stderr).not.toMatch(/Debugger|inspector/i)
  expect(ran.signal).toBeNull()
  expect(ran.code).toBe(128 + 10)
  expect(await refused(listenedOn(ran.stderr))).toBe(true)
}, 60_000)

it('passes a signal on to the command, which decides how to end, and stops the sandbox after it', async () => {
  const script = `
process.on('SIGINT', () => { console.log('command heard SIGINT'); process.exit(7) })
console.log('command ' + process.pid + ' waiting')
setInterval(() => {}, 1000)`
  const run = spawnRun(['--port', '0', '--pets', '1', '--log', 'off', '--', 'node', '-e', script])
  const [, pid] = await run.waitFor(/command (\d+) waiting/)
  run.child.kill('SIGINT')
  const ran = await run.ended
  expect(ran.stdout).toContain('command heard SIGINT')
  expect(ran.code).toBe(7)
  expect(alive(Number(pid))).toBe(false)
  expect(await refused(listenedOn(ran.stderr))).toBe(true)
}, 60_000)

it('never outlives npx: npx killed outright, the command is stopped with SIGTERM and the sandbox with it', async () => {
  const script = `
process.on('SIGTERM', () => { console.log('command heard SIGTERM'); process.exit(0) })
console.log('command ' + process.pid + ' waiting')
setInterval(() => {}, 1000)`
  const run = spawnRun(['--port', '0', '--pets', '1', '--log', 'off', '--', 'node', '-e', script], {
    npx: await consumerProject(),
  })
  const [, pid] = await run.waitFor(/command (\d+) waiting/)
  const url = listenedOn((await run.waitFor(/Listening on http:\/\/\S+\/v1/))[0])
  run.child.kill('SIGKILL')
  // npx's pipes close once every process holding them, the command and run, has ended.
  expect((await run.ended).stdout).toContain('command heard SIGTERM')
  for (let i = 0; i < 200 && alive(Number(pid)); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(alive(Number(pid)), 'the command left running').toBe(false)
  for (let i = 0; i < 200 && !(await refused(url)); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await refused(url), 'the port is free').toBe(true)
}, 60_000)

it('says in one line when the command cannot be run (127, as a shell says), or the options cannot be served', async () => {
  const missing = await spawnRun(['--port', '0', '--log', 'off', '--', 'no-such-command-here']).ended
  expect(missing.code).toBe(127)
  expect(missing.stderr.trim().split('\n').at(-1)).toBe(
    'error: cannot run no-such-command-here: no such command (is it installed, and on PATH?)',
  )
  const workers = await spawnRun(['--port', '0', '--workers', '2', '--', 'true']).ended
  expect(workers.code).toBe(1)
  expect(workers.stderr.trim()).toBe('error: --workers is for start: run serves its command from one process')
  const noCommand = await spawnRun(['--port', '0']).ended
  expect(noCommand.code).toBe(1)
  expect(noCommand.stderr).toContain("missing required argument 'command'")
}, 60_000)
