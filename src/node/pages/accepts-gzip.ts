/** Tells whether an Accept-Encoding header takes gzip: named (or `*`) without `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false
  return header.split(',').some((part) => {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    return (coding === 'gzip' || coding === '*') && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter))
  })
}
