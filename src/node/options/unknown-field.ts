import { distance } from 'fastest-levenshtein'

/**
 * The first field of `entry` that is not one of `known`, with the nearest known one when it is
 * close enough to be a typo ("`permin`: unknown field; did you mean `perMinute`?"), or undefined
 * when every field is known. Names are compared without case; a tie goes to the longer common
 * start, which is what people abbreviate.
 *
 * @example
 * unknownField({ key: 'k', permin: 5 }, ['key', 'plan', 'perMinute', 'perDay']) // 'permin: unknown field; did you mean perMinute?'
 */
export function unknownField(entry: object, known: readonly string[]): string | undefined {
  const field = Object.keys(entry).find((name) => !known.includes(name))
  if (field === undefined) return undefined
  const ranked = known
    .map((name) => ({ name, distance: distance(field.toLowerCase(), name.toLowerCase()), prefix: commonPrefix(field.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || b.prefix - a.prefix)
  const nearest = ranked[0]
  const close = nearest !== undefined && (nearest.distance <= Math.max(2, Math.floor(nearest.name.length / 2)) || nearest.prefix >= 3)
  return `${shown(field)}: unknown field; ${close ? `did you mean ${nearest.name}?` : `known fields: ${known.join(', ')}`}`
}

/** A field name as it is when plain, quoted when it holds anything else (spaces, control characters). */
function shown(name: string): string {
  return /^[\w$-]+$/.test(name) ? name : JSON.stringify(name)
}

function commonPrefix(a: string, b: string): number {
  let length = 0
  while (length < a.length && length < b.length && a[length] === b[length]) length++
  return length
}
