import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
import type { WrittenAnswer } from './answer-from-sandbox.js'

/** An Error body answer of the proxy's own (its admin endpoint, an upstream that gave no answer). */
export function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): WrittenAnswer {
  return {
    status,
    headers: { ...headers, 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify({ code, message, status })),
  }
}
