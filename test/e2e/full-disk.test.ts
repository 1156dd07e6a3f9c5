import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { useStateFileCalls } from '../support/state-file-calls.js'
import { type CliProcess, startCli } from '../support/start-cli.js'

// A `--state` file on a disk that fills up, on a real 640 KiB tmpfs. Mounting needs root: where it
// cannot, the tmpfs tier leaves this file out with one line saying so (test/support/tiers.ts), and
// `.ci/run` requires the tier, so CI never skips it.
const mountPoint = await mkdtemp(join(tmpdir(), 'petstore-full-disk-'))
execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=640k', 'tmpfs', mountPoint], { stdio: 'ignore' })

afterAll(async () => {
  execFileSync('umount', ['-l', mountPoint])
  await rmdir(mountPoint)
})

const { create, getPet } = useStateFileCalls('petstore-full-disk-')
const adminContract = createAdminContractChecker()

async function readyz(cli: CliProcess): Promise<Response> {
  const target = cli.url.replace(/\/v1$/, '/readyz')
  const response = await fetch(target)
  adminContract.check('GET', target, response)
  return response
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what} did not happen within 10 s`)
}

it('on a full disk refuses creates with a 503 Error body and /readyz 503, keeps the journal whole, recovers once space is freed, and keeps every acknowledged pet after kill -9', async () => {
  const file = join(mountPoint, 'state.jsonl')
  const filler = join(mountPoint, 'filler')
  await writeFile(filler, Buffer.alloc(560 * 1024))
  const acknowledged = new Map<number, string>()
  const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    let refused: Response | undefined
    for (let i = 0; refused === undefined; i++) {
      expect(i, 'creates before the disk is full').toBeLessThan(2_000)
      const name = `${i}`.padEnd(190, '.')
      const response = await create(cli, name)
      if (response.status === 201) acknowledged.set(((await response.json()) as { id: number }).id, name)
      else refused = response
    }
    expect(acknowledged.size).toBeGreaterThan(100)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      message: expect.stringContaining('ENOSPC'),
    })
    // Nothing can be written: readiness says so, and the next create of that size is refused alike.
    const notReady = await readyz(cli)
    expect(notReady.status).toBe(503)
    expect(JSON.stringify(await notReady.json())).toContain('ENOSPC')
    expect((await create(cli, 'Still full'.padEnd(190, '.'))).status).toBe(503)
    // The journal holds whole lines only: no partial line for the next one to be glued onto.
    expect((await readFile(file, 'utf8')).endsWith('}\n')).toBe(true)

    await rm(filler)
    await until('/readyz answering 200', async () => (await readyz(cli)).status === 200)
    const after = await create(cli, 'After the space was freed')
    expect(after.status).toBe(201)
    acknowledged.set(((await after.json()) as { id: number }).id, 'After the space was freed')
  } finally {
    expect((await cli.stop('SIGKILL')).signal).toBe('SIGKILL')
  }

  const restarted = await startCli(['--log', 'off', '--pets', '2', '--state', file])
  try {
    expect(restarted.output()).not.toContain('dropped')
    for (const [id, name] of acknowledged)
      expect(await (await getPet(restarted, id)).json(), `pet ${id}`).toMatchObject({ id, name })
  } finally {
    await restarted.stop()
  }
}, 60_000)

it('on a full disk refuses a runtime key change with a 503 Error body and /readyz 503, changes nothing, leaves no temporary file, and recovers once space is freed (D26)', async () => {
  const file = join(mountPoint, 'keys-state.jsonl')
  const token = 'admin-token-of-the-full-disk'
  const cli = await startCli(['--log', 'off', '--pets', '2', '--state', file, '--admin-token', token])
  const filler = join(mountPoint, 'filler-for-keys')
  const addKey = async (key: string) => {
    const target = cli.url.replace(/\/v1$/, '/__sandbox/keys')
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key, plan: 'pro' }),
    }
    const response = await fetch(target, init)
    adminContract.check('POST', target, response)
    return response
  }
  try {
    // Every byte of the disk taken: the write stops at ENOSPC with the file as large as it could grow.
    await writeFile(filler, Buffer.alloc(1024 * 1024)).catch((error: NodeJS.ErrnoException) =>
      expect(error.code).toBe('ENOSPC'),
    )
    const refused = await addKey('key-added-on-a-full-disk')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      message: expect.stringContaining('ENOSPC'),
    })
    const notReady = await readyz(cli)
    expect(notReady.status).toBe(503)
    expect(JSON.stringify(await notReady.json())).toContain('key file cannot be written (ENOSPC)')
    expect((await readdir(mountPoint)).filter((name) => name.endsWith('.tmp'))).toEqual([])
    // Nothing changed: the key opens nothing.
    const unknown = await fetch(`${cli.url}/pets?limit=1`, {
      headers: { authorization: 'Bearer key-added-on-a-full-disk' },
    })
    expect(unknown.status).toBe(401)

    await rm(filler)
    await until('/readyz answering 200', async () => (await readyz(cli)).status === 200)
    expect((await addKey('key-added-on-a-full-disk')).status).toBe(200)
  } finally {
    await rm(filler, { force: true })
    await cli.stop()
  }
}, 60_000)
