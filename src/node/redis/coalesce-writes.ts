import type { Redis } from 'ioredis'

/** Sends one event-loop turn's commands in one write; unlike auto-pipelining it never waits (BENCHMARKS.md, Redis). */
export function coalesceWrites(connection: Redis): void {
  let corked: { uncork(): void } | undefined
  const uncork = () => {
    const socket = corked
    corked = undefined
    socket?.uncork()
  }
  const send = connection.sendCommand.bind(connection)
  connection.sendCommand = (command, stream) => {
    const socket = connection.stream
    if (corked === undefined && stream === undefined && connection.status === 'ready' && socket?.writable) {
      socket.cork()
      corked = socket
      setImmediate(uncork)
    }
    return send(command, stream)
  }
}
