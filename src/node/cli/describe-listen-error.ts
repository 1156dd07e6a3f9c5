/** Words an error of `listen` as what to do about it; undefined for any other error. */
export function describeListenError(error: unknown, host: string, port: number): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return (
        `port ${port} on ${host} is already in use (another sandbox?); stop that process,` +
        ' choose another --port, or use --port 0 for a free one'
      )
    case 'EACCES':
      return (
        `not allowed to listen on port ${port} of ${host} (ports below 1024 need privileges);` +
        ' choose another --port, or use --port 0 for a free one'
      )
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine; use --host 127.0.0.1, or 0.0.0.0 for every interface`
    case 'ENOTFOUND':
      return `--host ${host} does not resolve to an address`
    default:
      return undefined
  }
}
