import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Transform } from 'node:stream'

/** A body's text as the checks read it: decoded, not decodable, or longer than the cap once decoded. */
export type DecodedBody = { kind: 'text'; text: string } | { kind: 'undecodable' } | { kind: 'too-large' }

export function isEncoded(contentEncoding: string | undefined): boolean {
  const encoding = contentEncoding?.trim().toLowerCase()
  return encoding !== undefined && encoding !== '' && encoding !== 'identity'
}

/** Decodes a body's `content-encoding` off the event loop for the checks, stopping past `maxBytes` (D38). */
export function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number): Promise<DecodedBody> {
  const decoder = decoderFor(contentEncoding)
  if (decoder === undefined) return Promise.resolve({ kind: 'text', text: body.toString('utf8') })
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    decoder.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      decoder.destroy()
      resolve({ kind: 'too-large' })
    })
    decoder.on('end', () => resolve({ kind: 'text', text: Buffer.concat(chunks, size).toString('utf8') }))
    // Undecodable: the checks then see no JSON, which is what a client would make of it too.
    decoder.on('error', () => resolve({ kind: 'undecodable' }))
    decoder.end(body)
  })
}

// A few events per mebibyte decoded.
const CHUNK_BYTES = 64 * 1024

function decoderFor(contentEncoding: string | undefined): Transform | undefined {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ chunkSize: CHUNK_BYTES })
    case 'deflate':
      return createInflate({ chunkSize: CHUNK_BYTES })
    case 'br':
      return createBrotliDecompress({ chunkSize: CHUNK_BYTES })
    default:
      return undefined
  }
}
