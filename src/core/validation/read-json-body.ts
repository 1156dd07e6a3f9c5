import type { SandboxRequest } from '../http/sandbox-request.js'
import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { findDuplicateKey } from './find-duplicate-key.js'

/** Bounds a body at 1 MiB (D9). */
export const MAX_BODY_BYTES = 1024 * 1024

/** Bounds a capsule restored over HTTP at 16 MiB (D34). */
export const MAX_CAPSULE_BYTES = 16 * 1024 * 1024

/** Reads a body as a JSON object (D9); `onText` gets the text before it is judged. */
export async function readJsonBody(
  request: SandboxRequest,
  onText?: (text: string) => void,
  maxBytes = MAX_BODY_BYTES,
  expected = 'a NewPet JSON object',
): Promise<Record<string, unknown>> {
  const mediaType = request.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') {
    throw new HttpError(
      415,
      ErrorCode.unsupportedMediaType,
      mediaType
        ? `Content-Type ${mediaType} is not supported; send application/json`
        : 'Content-Type is missing; send application/json',
    )
  }
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes)

  const bytes = await readAtMost(request, maxBytes)
  if (bytes.byteLength === 0) throw new HttpError(400, ErrorCode.invalidRequest, `body is required: send ${expected}`)
  let text: string
  try {
    // Keeps a byte order mark, to refuse it below.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new HttpError(400, ErrorCode.invalidRequest, 'body is not valid UTF-8')
  }
  onText?.(text)
  if (text.charCodeAt(0) === 0xfeff) {
    throw new HttpError(
      400,
      ErrorCode.invalidRequest,
      'body starts with a byte order mark; send JSON without one (RFC 8259 8.1)',
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it nests too deeply'
    throw new HttpError(400, ErrorCode.invalidRequest, `body is not valid JSON: ${reason}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, ErrorCode.invalidRequest, 'body must be a JSON object')
  }
  const duplicate = findDuplicateKey(text)
  if (duplicate !== undefined) {
    throw new HttpError(
      400,
      ErrorCode.invalidRequest,
      `body has the key ${JSON.stringify(duplicate.slice(0, 100))} twice in one object`,
    )
  }
  return value as Record<string, unknown>
}

async function readAtMost(request: SandboxRequest, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch {
      // A client gone mid-body: its fault, not ours.
      throw new HttpError(400, ErrorCode.invalidRequest, 'body was not received in full')
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // Not awaited: cancelling one branch of msw's tee settles only once the other is cancelled too.
      reader.cancel().catch(() => undefined)
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    ErrorCode.payloadTooLarge,
    `body is larger than ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB)`,
  )
}
