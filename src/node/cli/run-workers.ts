import cluster, { type Worker } from 'node:cluster'
import { watchParent } from '../server/watch-parent.js'

/**
 * `--workers <n>`: the primary forks n processes that serve one port (node:cluster hands them its
 * connections) and share their state through Redis, so they answer as one sandbox. A worker that
 * dies while serving is replaced; one that dies before it listened (a bad option, Redis refusing)
 * stops them all, since its siblings would fail alike. Signals stop every worker gracefully, and
 * so does the primary's parent going away, as for one process
 * (docs/cli.md#stopping): the primary is what npx started, and its workers watch only it.
 */
export function runWorkers(
  count: number,
  io: { stderr: (line: string) => void; onSignal: (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => void },
): Promise<void> {
  // Each worker accepts its own connections. Under node's default round robin the primary accepts
  // them and hands each to a worker: one handed to a worker killed meanwhile (kill -9) is never
  // closed by the primary, and its client hangs (docs/running-for-a-team.md#several-replicas-one-redis).
  // Accepted by the worker itself, a connection dies with it, and the client sees it closed.
  cluster.schedulingPolicy = cluster.SCHED_NONE
  let stopping = false
  const listened = new Set<number>()
  const fork = (): Worker => {
    const worker = cluster.fork()
    worker.once('listening', () => listened.add(worker.id))
    return worker
  }
  const stopAll = (signal: NodeJS.Signals) => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
  }
  return new Promise((resolve) => {
    cluster.on('exit', (worker, code) => {
      if (!stopping && listened.has(worker.id)) {
        io.stderr(`worker ${worker.process.pid} ended (${code ?? 'signal'}); starting another`)
        fork()
        return
      }
      if (!stopping) {
        stopping = true
        process.exitCode = code === 0 || code === null ? 1 : code
        stopAll('SIGTERM')
      }
      if (Object.keys(cluster.workers ?? {}).length === 0) resolve()
    })
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      io.onSignal(signal, () => {
        stopping = true
        stopAll(signal)
      })
    }
    watchParent(() => {
      if (stopping) return
      stopping = true
      stopAll('SIGTERM')
    })
    for (let i = 0; i < count; i++) fork()
  })
}
