// Calls the admin API for the dashboard; the token stays in the tab's sessionStorage and the Authorization header.

const TOKEN_KEY = 'petstore-sandbox-admin-token'
const SESSION_KEY = 'petstore-sandbox-session'
// Repeats core's SESSION_HEADER (D34): the assets load no core module at run time.
const SESSION_HEADER = 'x-sandbox-session'

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
}

/** Keeps the session the board shows (D34) beside the token; the default one sends no header. */
export const session = {
  get: (): string => sessionStorage.getItem(SESSION_KEY) ?? 'default',
  set: (name: string): void =>
    name === 'default' ? sessionStorage.removeItem(SESSION_KEY) : sessionStorage.setItem(SESSION_KEY, name),
}

/** The headers of every call: the token, and the picked session unless it is the default one. */
function headersOfCall(): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token.get() ?? ''}` }
  const picked = session.get()
  if (picked !== 'default') headers[SESSION_HEADER] = picked
  return headers
}

/** An admin answer other than 2xx: its Error body's message, and the status. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Calls `/__sandbox<path>` with the token in the picked session; rejects with AdminError. */
export async function admin<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const headers = headersOfCall()
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`/__sandbox${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    credentials: 'omit',
    cache: 'no-store',
  })
  const body = await response.json().catch(() => ({}))
  if (!response.ok)
    throw new AdminError(response.status, (body as { message?: string }).message ?? `HTTP ${response.status}`)
  return body as T
}

/** Reads `/__sandbox/events` through fetch, as EventSource cannot send the token, until `signal` aborts. */
export async function readEvents(
  onEvent: (name: string, data: unknown) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  const response = await fetch('/__sandbox/events', { headers: headersOfCall(), credentials: 'omit', signal })
  if (!response.ok || response.body === null) throw new AdminError(response.status, 'the event stream was refused')
  onOpen?.()
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      let name = 'message'
      let data = ''
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7)
        else if (line.startsWith('data: ')) data += line.slice(6)
      }
      if (data !== '') onEvent(name, JSON.parse(data))
      end = buffer.indexOf('\n\n')
    }
  }
}
