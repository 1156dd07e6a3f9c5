/**
 * The JSON value of a body's text, or undefined when it is empty or not JSON: a promise then
 * reports the body as it came, rather than verify or the proxy failing on it.
 *
 * @example
 * parseJsonBody('{"a":1}') // { a: 1 }
 * parseJsonBody('<html>') // undefined
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
