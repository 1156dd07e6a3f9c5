/** Tells whether an Accept header names JSON and not `text/html`; `*\/*` alone gets the page. */
export function prefersJson(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  return (
    types.some((type) => type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type)) &&
    !types.includes('text/html')
  )
}
