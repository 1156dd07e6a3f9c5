/**
 * Whether an Accept header asks for JSON rather than HTML: it names `application/json` (or
 * `application/*+json`) and not `text/html`. Browsers send `text/html`; `*\/*` alone gets the page.
 *
 * @example
 * prefersJson('application/json') // true
 * prefersJson('text/html,application/xhtml+xml,*\/*;q=0.8') // false
 */
export function prefersJson(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  return (
    types.some((type) => type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type)) &&
    !types.includes('text/html')
  )
}
