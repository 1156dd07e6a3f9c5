/** Reads the query as `URLSearchParams` does, repeated names into arrays. */
export function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  const add = (name: string, value: string) => addQueryValue(query, name, value)
  const search = url.search
  if (search === '') return query
  if (!/[%+]/.test(search)) {
    // Splits by hand without `%` or `+`: a URLSearchParams showed in every profile.
    for (const pair of search.slice(1).split('&')) {
      if (pair === '') continue
      const equals = pair.indexOf('=')
      if (equals === -1) add(pair, '')
      else add(pair.slice(0, equals), pair.slice(equals + 1))
    }
    return query
  }
  for (const [name, value] of url.searchParams) add(name, value)
  return query
}

/** Adds `value` as an own property, so `?__proto__=` is no prototype. */
export function addQueryValue(query: Record<string, string | string[]>, name: string, value: string | string[]): void {
  if (name !== '__proto__' && !Object.hasOwn(query, name)) {
    query[name] = value
    return
  }
  const existing = Object.hasOwn(query, name) ? query[name] : undefined
  const values = existing === undefined ? value : [...[existing].flat(), ...[value].flat()]
  Object.defineProperty(query, name, { value: values, enumerable: true, writable: true, configurable: true })
}
