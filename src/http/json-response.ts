export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** A JSON response with the sandbox's content type; `headers` is taken over as is. */
export function jsonResponse(body: unknown, status: number, headers: Headers): Response {
  headers.set('content-type', JSON_CONTENT_TYPE)
  return new Response(JSON.stringify(body), { status, headers })
}
