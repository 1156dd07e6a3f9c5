import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { distance } from 'fastest-levenshtein'
import { adminOpenapiDocument } from './admin-openapi-document.js'
import { ConfigError } from '../errors/config-error.js'

/** The schemas of fixtures/admin-openapi.yaml that structured inputs are held to. */
export type InputSchema =
  | 'KeysFile'
  | 'KeyConfig'
  | 'PlanChange'
  | 'FaultSettings'
  | 'BearerToken'
  | 'LatencySetting'
  | 'ScenariosFile'
  | 'SessionInit'
  | 'Capsule'

/**
 * Checks a structured input (a keys file, a key added at runtime, fault settings, a token) against
 * its schema in fixtures/admin-openapi.yaml, the one the admin API serves, so that every way in
 * keeps one rule. Throws a ConfigError naming the first field at fault after `where`
 * (`keys[0].plan must be one of free, pro, business, enterprise`), and an unknown field with the
 * nearest known one (`keys[0].permin: unknown field; did you mean perMinute?`). Values are never
 * quoted: they may be keys.
 *
 * @example
 * const faults = checkInput<FaultOptions>('FaultSettings', { errorRate: 2 }, 'faults') // throws "faults.errorRate must be at most 1"
 */
export function checkInput<T>(schema: InputSchema, value: unknown, where = ''): T {
  const validate = compiled(schema)
  if (validate(value)) return value as T
  const errors = validate.errors ?? []
  throw new ConfigError(describeInputError(pickError(errors), errors, where))
}

// One Ajv per process for the one admin document; each schema is compiled when first needed,
// as the request validator does. `verbose` keeps the failing schema on each error, for its words.
let ajv: Ajv | undefined
const validators = new Map<InputSchema, ValidateFunction>()

function compiled(schema: InputSchema): ValidateFunction {
  let validate = validators.get(schema)
  if (validate === undefined) {
    ajv ??= new Ajv({ strict: false, allErrors: true, verbose: true, validateFormats: false, validateSchema: false }).addSchema(
      adminOpenapiDocument as object,
      'admin',
    )
    validate = ajv.getSchema(`admin#/components/schemas/${schema}`)
    if (validate === undefined) throw new Error(`fixtures/admin-openapi.yaml has no schema ${schema}`)
    validators.set(schema, validate)
  }
  return validate
}

/**
 * The error to report. A `oneOf` (latency as ms or as a range) fails in every branch: a branch
 * whose type did not even match says less than one that matched and broke a bound, and the
 * `oneOf`/`if` summaries say least.
 */
function pickError(errors: readonly ErrorObject[]): ErrorObject {
  const specific = errors.filter((error) => !['oneOf', 'anyOf', 'if'].includes(error.keyword))
  const inBranch = (error: ErrorObject) => /\/(oneOf|anyOf)\/\d+\//.test(error.schemaPath)
  const telling = specific.filter((error) => !(error.keyword === 'type' && inBranch(error)))
  // An unknown field first: a typo of a required field explains that one's absence too.
  return telling.find((error) => error.keyword === 'additionalProperties') ?? telling[0] ?? specific[0] ?? errors[0]!
}

const BOUND_WORDS = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'above', exclusiveMaximum: 'below' } as const

// Values are never quoted: an input may hold keys.
function describeInputError(error: ErrorObject, all: readonly ErrorObject[], where: string): string {
  const steps = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))
  const at = (extra: string[] = []) => pathOf(where, [...steps, ...extra])
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {})
      return unknownField(at(), field, known)
    }
    case 'required': {
      const beside = all.find((other) => other.keyword === 'if' && other.instancePath === error.instancePath)
      const condition = /\/then\/required$/.test(error.schemaPath) && beside !== undefined ? conditionOf(beside) : ''
      return `${at([String(params.missingProperty)])} is required${condition}`
    }
    case 'enum':
      return `${at()} must be one of ${(params.allowedValues as unknown[]).join(', ')}`
    case 'type':
      return `${at()} must be ${article(String(params.type))}`
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `${at()} must be ${BOUND_WORDS[error.keyword as keyof typeof BOUND_WORDS]} ${params.limit}`
    case 'minItems':
      return `${at()} must hold at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`
    case 'minLength':
    case 'maxLength':
    case 'pattern': {
      const description = (error.parentSchema as { description?: string } | undefined)?.description
      if (description !== undefined) return `${at()} must be ${lowerFirst(description.replace(/^sandbox - /, ''))}`
      return `${at()} ${error.message ?? 'is invalid'}`
    }
    default:
      return `${at()} ${error.message ?? 'is invalid'}`
  }
}

/** `keys[0].plan`: the field's path, with array indexes in brackets, after `where`. */
function pathOf(where: string, steps: readonly string[]): string {
  let path = where
  for (const step of steps) path += /^\d+$/.test(step) ? `[${step}]` : `${path === '' ? '' : '.'}${shownName(step)}`
  return path === '' ? 'the input' : path
}

/** " when plan is enterprise", from the `if` error of the failing `then`: an `if` of constant properties. */
function conditionOf(error: ErrorObject): string {
  const properties = (error.parentSchema as { if?: { properties?: Record<string, { const?: unknown }> } } | undefined)?.if?.properties
  const parts = Object.entries(properties ?? {}).flatMap(([name, schema]) => (schema.const === undefined ? [] : [`${name} is ${String(schema.const)}`]))
  return parts.length === 0 ? '' : ` when ${parts.join(' and ')}`
}

/**
 * The unknown field named with the nearest known one when it is close enough to be a typo
 * ("permin: unknown field; did you mean perMinute?"). A name that is no near miss is not
 * repeated: a key pasted where a field name goes would be printed. Names are compared without
 * case; a tie goes to the longer common start, which is what people abbreviate.
 */
function unknownField(at: string, field: string, known: readonly string[]): string {
  const nearest = nearestName(field, known)
  const here = at === 'the input' ? '' : `${at}.`
  if (nearest !== undefined) return `${here}${shownName(field)}: unknown field; did you mean ${nearest}?`
  return `${at === 'the input' ? 'the input' : at} has an unknown field; known fields: ${known.join(', ')}`
}

/**
 * The known name nearest `word` when it is close enough to be a typo, else undefined: the one
 * "did you mean" of every message (fields, scenario names, keys named in a flag). Names are
 * compared without case; a tie goes to the longer common start, which is what people abbreviate.
 *
 * @example
 * nearestName('dwon', ['empty', 'slow', 'down']) // 'down'
 */
export function nearestName(word: string, known: readonly string[]): string | undefined {
  const ranked = known
    .map((name) => ({ name, distance: distance(word.toLowerCase(), name.toLowerCase()), prefix: commonPrefix(word.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || b.prefix - a.prefix)
  const nearest = ranked[0]
  const close = nearest !== undefined && (nearest.distance <= Math.max(2, Math.floor(nearest.name.length / 2)) || nearest.prefix >= 3)
  return close ? nearest.name : undefined
}

/** A name as a message shows it: plain when it is plain, quoted when it holds anything else (spaces, control characters). */
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

function lowerFirst(text: string): string {
  const trimmed = text.trim()
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1)
}
