import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { lockStateFile } from '../../src/node/persistence/lock-state-file.js'

it('waits out a lock its holder stopped refreshing, though the holder process lives, instead of refusing', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-lock-unit-'))
  const file = join(directory, 'state.jsonl')
  const live = spawn('sleep', ['60'], { stdio: 'ignore' })
  try {
    // A lock as its holder leaves it, last refreshed 2.2 s ago (a holder refreshes every second),
    // naming a live process of this host: it goes stale at 3 s, and is taken then.
    await mkdir(`${file}.lock`)
    const lastRefresh = new Date(Date.now() - 2_200)
    await utimes(`${file}.lock`, lastRefresh, lastRefresh)
    await writeFile(`${file}.lock-owner`, `${JSON.stringify({ pid: live.pid, host: hostname() })}\n`)
    const release = await lockStateFile(file, (error) => {
      throw error
    })
    await release()
  } finally {
    live.kill('SIGKILL')
    await rm(directory, { recursive: true })
  }
})

it('refuses at once a lock its live holder keeps refreshing, naming the pid', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-lock-unit-'))
  const file = join(directory, 'state.jsonl')
  const live = spawn('sleep', ['60'], { stdio: 'ignore' })
  try {
    await mkdir(`${file}.lock`)
    await writeFile(`${file}.lock-owner`, `${JSON.stringify({ pid: live.pid, host: hostname() })}\n`)
    await expect(lockStateFile(file, () => undefined)).rejects.toThrow(
      `state file ${file} is in use by pid ${live.pid}`,
    )
  } finally {
    live.kill('SIGKILL')
    await rm(directory, { recursive: true })
  }
})
