/**
 * Reads the token of an `Authorization: Bearer <token>` header (D17). The scheme name is
 * case-insensitive (RFC 9110 11.1); the token is RFC 6750's b64token. Anything else, including a
 * second credential or trailing garbage, is no credential at all.
 */
export function parseBearer(header: string | null): string | undefined {
  if (header === null) return undefined
  const match = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *$/.exec(header)
  return match?.[1]
}
