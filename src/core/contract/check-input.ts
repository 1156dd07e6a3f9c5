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
  const unbounded = nonFinite(value, [])
  if (unbounded !== undefined) throw new ConfigError(`${pathOf(where, unbounded, 'the input')} must be a finite number`)
  return value as T
}

/**
 * The path of a NaN or an Infinity in `value`, which a schema cannot refuse (JSON carries neither,
 * and Ajv takes Infinity for a number), and which only a library call can pass: a check the
 * schemas cannot express, named as such.
 */
function nonFinite(value: unknown, path: readonly string[]): readonly string[] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path
  if (typeof value !== 'object' || value === null) return undefined
  for (const [name, inner] of Object.entries(value)) {
    const found = nonFinite(inner, [...path, name])
    if (found !== undefined) return found
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
