/**
 * Whether an Accept-Encoding header takes gzip: named (or `*`) without `q=0`.
 *
 * @example
 * acceptsGzip('gzip, deflate, br') // true
 * acceptsGzip('gzip;q=0, identity') // false
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false
  return header.split(',').some((part) => {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    return (coding === 'gzip' || coding === '*') && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter))
  })
}
