import type { ErrorObject } from 'ajv'
import { distance } from 'fastest-levenshtein'

export interface InputIssue {
  /** Names the field after `where`: `keys[0].plan`. */
  field: string
  message: string
}

/** Words Ajv's errors as one issue per field, never quoting a value: it may be a key. */
export function describeInputErrors(errors: readonly ErrorObject[], where = '', root = 'the input'): InputIssue[] {
  const byField = new Map<string, string>()
  // A `oneOf` of single fields is worded as the choice.
  const choices = errors.flatMap((error) => {
    const names = choiceOf(error)
    return names === undefined ? [] : [{ error, names }]
  })
  for (const { error, names } of choices)
    byField.set(
      fieldOf(error, where, root),
      `${fieldOf(error, where, root)} must hold exactly one of ${names.join(', ')}`,
    )
  const chosen = (error: ErrorObject) =>
    choices.some(
      (choice) =>
        error.schemaPath.startsWith(`${choice.error.schemaPath}/`) && error.instancePath === choice.error.instancePath,
    )
  const named = telling(errors).filter((error) => choices.length === 0 || !chosen(error))
  // Linear time for a 20000-pet capsule.
  const atPlace = new Map<string, ErrorObject[]>()
  for (const error of errors) {
    const place = atPlace.get(error.instancePath)
    if (place === undefined) atPlace.set(error.instancePath, [error])
    else place.push(error)
  }
  // First: a typo of a required field explains its absence too.
  const explained = new Set<string>()
  for (const error of named) {
    if (error.keyword !== 'additionalProperties') continue
    const { field, message, nearest } = unknownField(error, where, root)
    if (!byField.has(field)) byField.set(field, message)
    if (nearest !== undefined) explained.add(pathOf(where, [...steps(error), nearest], root))
  }
  for (const error of named) {
    if (error.keyword === 'additionalProperties') continue
    const field = fieldOf(error, where, root)
    if (byField.has(field) || explained.has(field)) continue
    byField.set(field, words(error, atPlace.get(error.instancePath)!, field))
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

/** Bounds the issues a message names. */
export const MAX_TOLD_ISSUES = 20

/** Joins the first issues into one message. */
export function inputMessage(issues: readonly InputIssue[]): string {
  const told = issues.slice(0, MAX_TOLD_ISSUES).map(({ message }) => message)
  const more = issues.length - told.length
  return `${told.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/** Keeps the errors worth naming: of a `oneOf`/`anyOf`, the closest branches. */
function telling(errors: readonly ErrorObject[]): ErrorObject[] {
  const branchOf = (error: ErrorObject) => /^(.*?\/(?:oneOf|anyOf)\/\d+)\//.exec(error.schemaPath)?.[1]
  const counts = new Map<string, number>()
  for (const error of errors) {
    const branch = branchOf(error)
    if (branch !== undefined) counts.set(branch, (counts.get(branch) ?? 0) + 1)
  }
  const fewest = Math.min(...counts.values())
  const kept = errors.filter((error) => {
    if (error.keyword === 'if' || (['oneOf', 'anyOf'].includes(error.keyword) && counts.size > 0)) return false
    const branch = branchOf(error)
    return branch === undefined || counts.get(branch) === fewest
  })
  const matchedType = kept.filter((error) => !(error.keyword === 'type' && branchOf(error) !== undefined))
  return matchedType.length > 0 ? matchedType : kept
}

/** Returns a `oneOf`'s single fields when none or several are given. */
function choiceOf(error: ErrorObject): string[] | undefined {
  if (error.keyword !== 'oneOf' || !Array.isArray(error.schema)) return undefined
  const names = (error.schema as Array<{ required?: string[]; additionalProperties?: unknown }>).map((branch) =>
    branch.required?.length === 1 && branch.additionalProperties === false ? branch.required[0] : undefined,
  )
  if (names.some((name) => name === undefined)) return undefined
  const data = error.data
  if (typeof data !== 'object' || data === null) return undefined
  const given = names.filter((name) => Object.hasOwn(data, name!)).length
  return given === 1 ? undefined : (names as string[])
}

const BOUND_WORDS = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'above',
  exclusiveMaximum: 'below',
} as const

function words(error: ErrorObject, beside: readonly ErrorObject[], field: string): string {
  const params = error.params as Record<string, unknown>
  const schema = (error.parentSchema ?? {}) as {
    minimum?: number
    maximum?: number
    description?: string
    properties?: object
  }
  switch (error.keyword) {
    case 'required': {
      const condition = beside.find((other) => other.keyword === 'if')
      const when = /\/then\/required$/.test(error.schemaPath) && condition !== undefined ? conditionOf(condition) : ''
      return `${field} is required${when}`
    }
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).join(', ')}`
    case 'const':
      return `${field} must be ${String(params.allowedValue)}`
    case 'type':
      return `${field} must be ${article(String(params.type))}`
    case 'minimum':
    case 'maximum':
      if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) {
        return `${field} must be between ${schema.minimum} and ${schema.maximum}`
      }
      return `${field} must be ${BOUND_WORDS[error.keyword]} ${params.limit}`
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} must be ${BOUND_WORDS[error.keyword]} ${params.limit}`
    case 'multipleOf':
      return `${field} must be a multiple of ${params.multipleOf}`
    case 'minItems':
      return `${field} must hold at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`
    case 'maxItems':
      return `${field} must hold at most ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`
    case 'minProperties': {
      const known = Object.keys(schema.properties ?? {})
      const count = params.limit === 1 ? 'one' : String(params.limit)
      return known.length > 0
        ? `${field} must name at least ${count} of ${known.join(', ')}`
        : `${field} must name at least ${count} field(s)`
    }
    case 'minLength':
    case 'maxLength':
    case 'pattern': {
      if (schema.description !== undefined) return `${field} must be ${ruleOf(schema.description)}`
      if (error.keyword === 'pattern') return `${field} must match ${String(params.pattern)}`
      if (error.keyword === 'minLength' && params.limit === 1) return `${field} must not be empty`
      return `${field} must be ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${params.limit} characters`
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`
  }
}

/** Reads the rule from a schema's description: its first clause. */
function ruleOf(description: string): string {
  const rule = description
    .trim()
    .replace(/^sandbox - /, '')
    .split(/;\s/, 1)[0]!
    .replace(/\s*\(D\d+\)\.?$/, '')
    .replace(/\.$/, '')
  return rule.charAt(0).toLowerCase() + rule.slice(1)
}

/** Words the `if` of a failing `then`: " when plan is enterprise". */
function conditionOf(error: ErrorObject): string {
  const properties = (error.parentSchema as { if?: { properties?: Record<string, { const?: unknown }> } } | undefined)
    ?.if?.properties
  const parts = Object.entries(properties ?? {}).flatMap(([name, schema]) =>
    schema.const === undefined ? [] : [`${name} is ${String(schema.const)}`],
  )
  return parts.length === 0 ? '' : ` when ${parts.join(' and ')}`
}

function steps(error: ErrorObject): string[] {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function fieldOf(error: ErrorObject, where: string, root: string): string {
  const extra =
    error.keyword === 'required' ? [String((error.params as { missingProperty: unknown }).missingProperty)] : []
  return pathOf(where, [...steps(error), ...extra], root)
}

/** Names a field's path after `where`; `root` when empty. */
export function pathOf(where: string, path: readonly string[], root: string): string {
  let named = where
  for (const step of path) named += /^\d+$/.test(step) ? `[${step}]` : `${named === '' ? '' : '.'}${shownName(step)}`
  return named === '' ? root : named
}

function unknownField(
  error: ErrorObject,
  where: string,
  root: string,
): { field: string; message: string; nearest?: string } {
  const field = String((error.params as { additionalProperty: unknown }).additionalProperty)
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {})
  return unknownName(field, known, where, steps(error), root)
}

/** Words an unknown field, never repeating one near no name: it may be a key. */
export function unknownName(
  field: string,
  known: readonly string[],
  where = '',
  path: readonly string[] = [],
  root = 'the input',
): { field: string; message: string; nearest?: string } {
  const nearest = nearestName(field, known)
  if (nearest !== undefined) {
    const named = pathOf(where, [...path, field], root)
    return { field: named, message: `${named}: unknown field; did you mean ${nearest}?`, nearest }
  }
  const at = pathOf(where, path, root)
  return { field: `${at} (unknown field)`, message: `${at} has an unknown field; known fields: ${known.join(', ')}` }
}

/** Finds the name a typo of `word` meant; a tie goes to the longer common start. */
export function nearestName(word: string, known: readonly string[]): string | undefined {
  const ranked = known
    .map((name) => ({
      name,
      distance: distance(word.toLowerCase(), name.toLowerCase()),
      prefix: commonPrefix(word.toLowerCase(), name.toLowerCase()),
    }))
    .sort((a, b) => a.distance - b.distance || b.prefix - a.prefix)
  const nearest = ranked[0]
  const close =
    nearest !== undefined &&
    (nearest.distance <= Math.max(2, Math.floor(nearest.name.length / 2)) || nearest.prefix >= 3)
  return close ? nearest.name : undefined
}

/** Shows a name plain, or JSON-quoted. */
export function shownName(name: string): string {
  return /^[\w$-]+$/.test(name) ? name : JSON.stringify(name)
}

function commonPrefix(a: string, b: string): number {
  let length = 0
  while (length < a.length && length < b.length && a[length] === b[length]) length++
  return length
}

function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type.replace(',', ' or ')}`
}
