// The dashboard's calls to the admin API. The token lives in this tab's sessionStorage only: it
// goes out in the Authorization header, never in a URL or a cookie.

const TOKEN_KEY = 'petstore-sandbox-admin-token'

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
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

/** Calls `/__sandbox<path>` with the token; resolves with the JSON body, rejects with AdminError. */
export async function admin<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token.get() ?? ''}` }
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`/__sandbox${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    credentials: 'omit',
    cache: 'no-store',
  })
  const body = await response.json().catch(() => ({}))
  if (!response.ok) throw new AdminError(response.status, (body as { message?: string }).message ?? `HTTP ${response.status}`)
  return body as T
}

/**
 * Reads the server-sent events of `/__sandbox/events` through fetch (EventSource cannot send the
 * token), calling `onEvent` with each event's name and JSON data, until `signal` aborts.
 */
export async function readEvents(onEvent: (name: string, data: unknown) => void, signal: AbortSignal): Promise<void> {
  const response = await fetch('/__sandbox/events', { headers: { authorization: `Bearer ${token.get() ?? ''}` }, credentials: 'omit', signal })
  if (!response.ok || response.body === null) throw new AdminError(response.status, 'the event stream was refused')
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
