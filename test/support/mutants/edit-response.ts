/** A copy of `response` with another status, headers edited, or the JSON body rewritten. */
export async function editResponse(
  response: Response,
  edit: { status?: number; headers?: (headers: Headers) => void; json?: (body: unknown) => unknown; text?: string },
): Promise<Response> {
  const headers = new Headers(response.headers)
  edit.headers?.(headers)
  let body = await response.text()
  if (edit.json) body = JSON.stringify(edit.json(JSON.parse(body)))
  if (edit.text !== undefined) body = edit.text
  headers.delete('content-length')
  return new Response(body, { status: edit.status ?? response.status, headers })
}

/** `request` sent to another URL of the same origin, or with another JSON body. */
export function editRequest(request: Request, edit: { url?: (url: URL) => void; body?: unknown }): Request {
  const url = new URL(request.url)
  edit.url?.(url)
  const headers = new Headers(request.headers)
  if (edit.body !== undefined) headers.delete('content-length')
  return new Request(url, {
    method: request.method,
    headers,
    ...(edit.body !== undefined
      ? { body: JSON.stringify(edit.body) }
      : request.body
        ? { body: request.body, duplex: 'half' }
        : {}),
  } as RequestInit)
}
