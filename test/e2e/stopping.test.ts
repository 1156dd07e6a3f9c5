import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { refused } from '../support/raw-http.js'
import { expect, it } from 'vitest'
import { consumerProject } from '../support/consumer-project.js'
import { contractViolations } from '../support/contract.js'
import { pagesContractViolations } from '../support/pages-contract.js'
import { BIN } from '../support/start-cli.js'
import { startRedis } from '../support/start-redis.js'
import { tierMissing } from '../support/tiers.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Pids of live processes whose command line holds `marker` (a seed no other test uses). */
function processesWith(marker: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (args.includes(marker) && (args.includes('start') || args.includes('proxy'))) pids.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number)
}

/**
 * Runs `<command> &` in sh, as a CI script does, and resolves once the sandbox listens, with the
 * pid of the background job (`$!`): npx itself, or node.
 */
async function startInBackground(command: string, cwd: string, ownGroup = false) {
  // In its own process group, the shell and everything it started can be signalled as a terminal does.
  const shell = spawn('sh', ['-c', `${command} & echo "job $!"; wait`], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  })
  let output = ''
  shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const started = await new Promise<{ job: number; url: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start within 30 s:\n${output}`)), 30_000)
    shell.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const job = /job (\d+)/.exec(output)
      const url = /Listening on (http:\/\/\S+\/v1)/.exec(output)
      if (job && url) {
        clearTimeout(timer)
        resolve({ job: Number(job[1]), url: url[1]! })
      }
    })
  })
  return { ...started, shell, output: () => output }
}

async function expectStopped(marker: string, url: string): Promise<void> {
  for (let i = 0; i < 200 && processesWith(marker).length > 0; i++) await sleep(50)
  expect(processesWith(marker), 'processes left running').toEqual([])
  expect(await refused(url), 'the port is free').toBe(true)
}

async function expectServing(url: string): Promise<void> {
  const served = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer sandbox-free-key' } })
  expect(await contractViolations('GET', `${url}/pets`, served.clone())).toEqual([])
  expect(served.status).toBe(200)
}

/** The proxy's front door, which needs no upstream, is answered. */
async function expectAnswering(url: string): Promise<void> {
  const door = await fetch(url.replace(/\/v1$/, '/'), { headers: { accept: 'application/json' } })
  expect(await pagesContractViolations('GET', door.url, door.clone())).toEqual([])
  expect(door.status).toBe(200)
}

const marker = () => String(1_000_000 + Math.floor(Math.random() * 1_000_000_000))

// npm passes SIGINT and SIGTERM to the `sh -c` it runs the CLI through, and no further: `$!` alone
// is signalled, as a CI script's `kill` does; the group is signalled as a terminal's Ctrl-C does.
// `proxy` stops through the same watching of its parent as `start`.
it.each([
  ['start', 'SIGTERM to npx (`kill $!`)', 'SIGTERM', false],
  ['start', 'SIGINT to its process group (Ctrl-C)', 'SIGINT', true],
  ['proxy', 'SIGTERM to npx (`kill $!`)', 'SIGTERM', false],
  ['proxy', 'SIGINT to its process group (Ctrl-C)', 'SIGINT', true],
] as const)(
  'stops gracefully when `npx petstore-sandbox %s &` gets %s, leaving no process on the port',
  async (command, _case, signal, group) => {
    const seed = marker()
    // The proxy's upstream is never called here: it only has to parse.
    const args = command === 'proxy' ? '--upstream http://127.0.0.1:9/v1' : '--log off'
    const cli = await startInBackground(
      `npx petstore-sandbox ${command} --port 0 ${args} --pets 3 --seed ${seed}`,
      await consumerProject(),
      group,
    )
    expect(processesWith(seed).length).toBeGreaterThan(0)
    if (command === 'start') await expectServing(cli.url)
    else await expectAnswering(cli.url)
    process.kill(group ? -cli.shell.pid! : cli.job, signal)
    await expectStopped(seed, cli.url)
    expect(cli.output()).toContain('Shutting down')
  },
  60_000,
)

it('keeps serving under npx when nothing asks it to stop, even once stopped and continued', async () => {
  const seed = marker()
  const cli = await startInBackground(
    `npx petstore-sandbox start --port 0 --log off --pets 3 --seed ${seed}`,
    await consumerProject(),
  )
  // Several times the interval at which the CLI looks at the shell npm started it through.
  await sleep(4_000)
  await expectServing(cli.url)
  // Stopping and continuing the sandbox wakes that shell (SIGCHLD), as a signal would.
  // npx (`$!`) runs `sh -c`, which runs the sandbox.
  const [shell] = childrenOf(cli.job)
  const [sandbox] = childrenOf(shell!)
  expect(processesWith(seed)).toContain(sandbox)
  process.kill(sandbox!, 'SIGSTOP')
  await sleep(300)
  process.kill(sandbox!, 'SIGCONT')
  await sleep(3_000)
  await expectServing(cli.url)
  expect(cli.output()).not.toContain('Shutting down')
  process.kill(cli.job, 'SIGTERM')
  await expectStopped(seed, cli.url)
  expect(cli.output()).toContain('Shutting down')
}, 60_000)

it('stops when the npx process is killed outright: its parent gone, the server follows', async () => {
  const seed = marker()
  const cli = await startInBackground(
    `npx petstore-sandbox start --port 0 --log off --pets 3 --seed ${seed}`,
    await consumerProject(),
  )
  process.kill(cli.job, 'SIGKILL')
  await expectStopped(seed, cli.url)
  expect(cli.output()).toContain('Shutting down')
}, 60_000)

// Part of the Redis tier: skipped where redis-server is missing, as the tier's files are (test/support/tiers.ts).
it.skipIf(tierMissing('redis'))(
  'stops the primary and every worker when `npx petstore-sandbox start --workers 2 &` gets `kill $!` or Ctrl-C',
  async () => {
    const redis = await startRedis()
    try {
      for (const [signal, group] of [
        ['SIGTERM', false],
        ['SIGINT', true],
      ] as const) {
        const seed = marker()
        const command = `npx petstore-sandbox start --port 0 --log off --pets 3 --seed ${seed} --workers 2 --redis ${redis.url} --redis-prefix s${seed}:`
        const cli = await startInBackground(command, await consumerProject(), group)
        // The primary and its two workers.
        expect(processesWith(seed).length).toBeGreaterThanOrEqual(3)
        await expectServing(cli.url)
        process.kill(group ? -cli.shell.pid! : cli.job, signal)
        await expectStopped(seed, cli.url)
        expect(cli.output(), signal).not.toContain('starting another')
      }
    } finally {
      await redis.remove()
    }
  },
  90_000,
)

it('stops on SIGTERM as `node bin/petstore-sandbox.js start &`, and when the shell that started it is killed', async () => {
  const seed = marker()
  const direct = await startInBackground(
    `"${process.execPath}" "${BIN}" start --port 0 --log off --pets 3 --seed ${seed}`,
    process.cwd(),
  )
  process.kill(direct.job, 'SIGTERM')
  await expectStopped(seed, direct.url)

  const orphaned = marker()
  const child = await startInBackground(
    `"${process.execPath}" "${BIN}" start --port 0 --log off --pets 3 --seed ${orphaned}`,
    process.cwd(),
  )
  child.shell.kill('SIGKILL')
  await expectStopped(orphaned, child.url)
  expect(child.output()).toContain('Shutting down')
}, 60_000)
