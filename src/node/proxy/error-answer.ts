import type { HttpError } from '../../core/errors/http-error.js'
import { errorReply } from '../../core/http/error-reply.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
import type { WrittenAnswer } from './answer-from-sandbox.js'

/** An answer of the proxy's own (its admin endpoint, an upstream that gave no answer), through the one Error body path. */
export function errorAnswer(refusal: HttpError): WrittenAnswer {
  const reply = errorReply(refusal, new Headers({ 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }))
  const headers: Record<string, string> = {}
  reply.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: reply.status, headers, body: Buffer.from(JSON.stringify(reply.body)) }
}
