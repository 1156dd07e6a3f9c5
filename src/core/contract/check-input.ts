import { Ajv, type ValidateFunction } from 'ajv'
import { adminOpenapiDocument } from './admin-openapi-document.js'
import { describeInputErrors, inputMessage, pathOf } from './describe-input-errors.js'
import { openapiDocument } from './openapi-document.js'
import { ConfigError } from '../errors/config-error.js'

// The schemas structured inputs are held to: the API's (fixtures/openapi.yaml) and the admin API's
// (fixtures/admin-openapi.yaml), by the document that holds them.
const API_SCHEMAS = ['NewPet', 'Pet'] as const
const ADMIN_SCHEMAS = [
  'KeysFile',
  'KeyConfig',
  'PlanChange',
  'QuotaChange',
  'FaultSettings',
  'BearerToken',
  'LatencySetting',
  'ScenariosFile',
  'SessionInit',
  'SessionKeyInit',
  'Capsule',
] as const

/** A schema of the contract that structured inputs are held to. */
export type InputSchema = (typeof API_SCHEMAS)[number] | (typeof ADMIN_SCHEMAS)[number]

/**
 * Checks a structured input (a keys file, a key added at runtime, fault settings, a token, a pet
 * arranged in-process) against its schema in the contract, the one the API or the admin API holds
 * requests to, so that every way in keeps one rule. Throws a ConfigError worded by the one describer (describe-input-errors.ts), as
 * the admin API words its 400s: each field at fault after `where`
 * (`keys[0].plan must be one of free, pro, business, enterprise`), an unknown field with the
 * nearest known one (`keys[0].permin: unknown field; did you mean perMinute?`).
 *
 * @example
 * const faults = checkInput<FaultOptions>('FaultSettings', { errorRate: 2 }, 'faults') // throws "faults.errorRate must be between 0 and 1"
 */
export function checkInput<T>(schema: InputSchema, value: unknown, where = ''): T {
  const validate = compiled(schema)
  if (!validate(value)) throw new ConfigError(inputMessage(describeInputErrors(validate.errors ?? [], where)))
  const unbounded = unboundedPart(value)
  if (unbounded !== undefined)
    throw new ConfigError(`${pathOf(where, unbounded.path, 'the input')} ${unbounded.problem}`)
  return value as T
}

/** How deep an input may nest: every schema's own fields are a few levels deep; what a schema leaves open (a HAR's `_` fields) may not go further. */
export const MAX_INPUT_DEPTH = 64

/**
 * The path of the first part of `value` a schema cannot refuse: a NaN or an Infinity (JSON carries
 * neither, and Ajv takes Infinity for a number; only a library call passes one), or an array or
 * object nested deeper than MAX_INPUT_DEPTH (a field the schema leaves open). Iterative, so a
 * 10000-level nesting costs no stack.
 */
function unboundedPart(value: unknown): { path: readonly string[]; problem: string } | undefined {
  interface Step {
    value: unknown
    name: string
    parent: Step | undefined
    depth: number
  }
  const pathTo = (step: Step): string[] => {
    const path: string[] = []
    for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent) path.push(at.name)
    return path.reverse()
  }
  const pending: Step[] = [{ value, name: '', parent: undefined, depth: 0 }]
  while (pending.length > 0) {
    const step = pending.pop()!
    if (typeof step.value === 'number' && !Number.isFinite(step.value))
      return { path: pathTo(step), problem: 'must be a finite number' }
    if (typeof step.value !== 'object' || step.value === null) continue
    if (step.depth >= MAX_INPUT_DEPTH)
      return { path: pathTo(step), problem: `nests deeper than ${MAX_INPUT_DEPTH} levels` }
    const members = Object.entries(step.value)
    // Last first, so the first part at fault in document order is the one named.
    for (let i = members.length - 1; i >= 0; i--)
      pending.push({ value: members[i]![1], name: members[i]![0], parent: step, depth: step.depth + 1 })
  }
  return undefined
}

// One Ajv per process for the two documents; each schema is compiled when first needed, as the
// request validator does. `verbose` keeps the failing schema on each error, for its words.
let ajv: Ajv | undefined
const validators = new Map<InputSchema, ValidateFunction>()

function compiled(schema: InputSchema): ValidateFunction {
  let validate = validators.get(schema)
  if (validate === undefined) {
    ajv ??= new Ajv({ strict: false, allErrors: true, verbose: true, validateFormats: false, validateSchema: false })
      .addSchema(adminOpenapiDocument as object, 'admin')
      .addSchema(openapiDocument as object, 'api')
    const document = (API_SCHEMAS as readonly string[]).includes(schema) ? 'api' : 'admin'
    validate = ajv.getSchema(`${document}#/components/schemas/${schema}`)
    if (validate === undefined) throw new Error(`the ${document} document has no schema ${schema}`)
    validators.set(schema, validate)
  }
  return validate
}
