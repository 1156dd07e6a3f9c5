// Imports only node's own modules: bench scripts import this file too (Node strips its types).

/** What a process holds after two full GCs, from its `process.memoryUsage()`, in bytes. */
export interface MemoryAfterGc {
  heapUsed: number
  /** Memory V8 does not manage but objects on its heap hold: large strings made from bytes (a body's text) among them. */
  external: number
  arrayBuffers: number
  rss: number
}

/** The inspector's address a process started with `--inspect=127.0.0.1:0` printed, once it has. */
export function inspectorAddress(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1]
}

/**
 * Connects to a Node process's inspector (started with `--inspect=127.0.0.1:0`): `afterGc()` runs
 * two full GCs in it and reads its memory, so what the process still holds can be told from
 * garbage not yet collected. For memory figures (BENCHMARKS.md) and bounds in tests, of a CLI
 * process that has no other way to show them.
 */
export async function inspectMemory(address: string) {
  const socket = new WebSocket(address)
  await new Promise((resolve, reject) => {
    socket.onopen = resolve
    socket.onerror = () => reject(new Error(`cannot reach the inspector at ${address}`))
  })
  let nextId = 0
  const pending = new Map<number, (result: unknown) => void>()
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
    if (message.id === undefined) return
    pending.get(message.id)?.(message.result)
    pending.delete(message.id)
  }
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId
      pending.set(id, resolve)
      socket.send(JSON.stringify({ id, method, params }))
    })
  return {
    async afterGc(): Promise<MemoryAfterGc> {
      await send('HeapProfiler.collectGarbage')
      await send('HeapProfiler.collectGarbage')
      const reply = (await send('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as {
        result: { value: string }
      }
      const { heapUsed, external, arrayBuffers, rss } = JSON.parse(reply.result.value) as MemoryAfterGc
      return { heapUsed, external, arrayBuffers, rss }
    },
    close(): void {
      socket.close()
    },
  }
}
