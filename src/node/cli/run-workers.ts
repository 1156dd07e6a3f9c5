import cluster, { type Worker } from 'node:cluster'
import { watchParent } from '../server/watch-parent.js'

/** Forks `--workers <n>` processes on one port sharing Redis; replaces one that dies. */
export function runWorkers(
  count: number,
  io: { stderr: (line: string) => void; onSignal: (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => void },
): Promise<void> {
  // Under round robin, a connection handed to a killed worker hangs its client.
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
