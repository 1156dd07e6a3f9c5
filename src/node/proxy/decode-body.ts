import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** The text of a body as sent with `content-encoding`, for checking only; the client gets the bytes as they came. */
export function decodeBody(body: Buffer, contentEncoding: string | undefined): string {
  try {
    switch (contentEncoding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body).toString('utf8')
      case 'deflate':
        return inflateSync(body).toString('utf8')
      case 'br':
        return brotliDecompressSync(body).toString('utf8')
      default:
        return body.toString('utf8')
    }
  } catch {
    // Undecodable: the checks then see no JSON, which is what a client would make of it too.
    return ''
  }
}
