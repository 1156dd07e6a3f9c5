/** Compares in time that depends on lengths only (browsers lack `node:crypto`). */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return difference === 0
}
