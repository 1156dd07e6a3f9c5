/**
 * Compares two strings in time that depends only on their lengths, so a key guesser learns
 * nothing from how quickly a wrong key is refused. Plain JavaScript, because the same code runs
 * in the browser, where `node:crypto.timingSafeEqual` does not exist.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return difference === 0
}
