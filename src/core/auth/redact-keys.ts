import { maskKey } from './mask-key.js'

/**
 * `text` with every configured key in it replaced by its mask (`team…#1a2b`), for anything that
 * echoes what a client sent (a path in an Error message, a URL in the request log): a client that
 * puts its key in the wrong place must not find it whole in a log or an answer.
 *
 * @example
 * redactKeys('no resource at /v1/team-secret-key', ['team-secret-key']) // 'no resource at /v1/team…#1a2b'
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  let result = text
  for (const key of keys) if (result.includes(key)) result = result.replaceAll(key, maskKey(key))
  return result
}
