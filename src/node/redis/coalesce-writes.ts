import type { Redis } from 'ioredis'

/**
 * Sends the commands `connection` is given in one turn of the event loop in one write, when the
 * turn ends (BENCHMARKS.md, the Redis section). Unlike ioredis's auto-pipelining it never waits
 * for an answer: a command leaves in the turn it was made, whatever Redis is still working on.
 */
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
