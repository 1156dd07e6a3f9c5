import { connect, type Socket } from 'node:net'

/**
 * A TCP connection to the server at `url`, for tests that must control the bytes and their timing
 * (slow clients, half-sent requests, connections held open across a shutdown).
 *
 * @example
 * const socket = await openSocket(cli.url)
 */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once('error', reject)
  })
}

/**
 * Everything the server sends on `socket` until it closes the connection; a reset counts as a
 * close.
 *
 * @example
 * const closed = untilClosed(socket); socket.write(request); const bytes = await closed
 */
export function untilClosed(socket: Socket): Promise<Buffer> {
  let data = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])))
  socket.on('error', () => undefined)
  return new Promise((resolve) => socket.once('close', () => resolve(data)))
}
