import { InvalidArgumentError } from 'commander'

/** A base URL argument (`verify <baseUrl>`, `proxy --upstream`): http or https, no query; returned without a trailing slash. */
export function parseBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError(`expected an http(s) URL such as https://staging.animal-store.example/v1, got ${JSON.stringify(value)}.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an http or https URL, got ${url.protocol}.`)
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError('expected a base URL without query, fragment or credentials (the key goes in --key).')
  }
  return url.href.replace(/\/+$/, '')
}
