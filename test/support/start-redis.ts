import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { howToRun, REDIS_SERVER, TIERS, tierMissing } from './tiers.js'

export interface RedisServer {
  url: string
  port: number
  /** The throwaway directory of its data files. */
  dir: string
  /** Stops it (SIGKILL: as a crash, SIGTERM: as a shutdown) and resolves once it is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Freezes it (SIGSTOP: connections stay open, nothing answers) or thaws it (SIGCONT). */
  freeze(frozen: boolean): void
  /** Starts it again on the same port and directory, as an orchestrator would. */
  restart(): Promise<void>
  /** Stops it and removes its directory. */
  remove(): Promise<void>
}

/**
 * A real `redis-server` of the test's own, on a free loopback port with a throwaway directory.
 * `appendfsync: 'always'` turns the append-only file on and syncs every write before it is
 * acknowledged (docs/running-for-a-team.md#durability); otherwise nothing is persisted. `cluster`
 * starts it as a node of a Redis Cluster (with no slots of its own), failed over after
 * `clusterNodeTimeoutMs` without an answer. `replicaOf` starts it as a replica of the Redis on that port.
 */
export async function startRedis(
  options: { appendfsync?: 'always'; cluster?: boolean; clusterNodeTimeoutMs?: number; replicaOf?: number } = {},
): Promise<RedisServer> {
  const missing = tierMissing('redis')
  if (missing !== undefined)
    throw new Error(
      `The Redis tier of the tests needs redis-server (or REDIS_SERVER_PATH): ${missing}. ${howToRun([TIERS.redis])}`,
    )
  const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-redis-'))
  const port = await freePort()
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...(options.appendfsync ? ['--appendonly', 'yes', '--appendfsync', options.appendfsync] : ['--appendonly', 'no']),
    ...(options.cluster ? ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')] : []),
    ...(options.clusterNodeTimeoutMs === undefined
      ? []
      : ['--cluster-node-timeout', String(options.clusterNodeTimeoutMs)]),
    ...(options.replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(options.replicaOf)]),
  ]
  let child: ChildProcess = await launch(args)
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill(signal)
      await exited
    },
    freeze(frozen) {
      child.kill(frozen ? 'SIGSTOP' : 'SIGCONT')
    },
    async restart() {
      await server.stop()
      child = await launch(args)
    },
    async remove() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}

function launch(args: string[]): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not start within 10 s:\n${output}`))
    }, 10_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}:\n${output}`))
    })
  })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
