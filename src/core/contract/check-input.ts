import { Ajv, type ValidateFunction } from 'ajv'
import { adminOpenapiDocument } from './admin-openapi-document.js'
import { describeInputErrors, inputMessage, pathOf } from './describe-input-errors.js'
import { openapiDocument } from './openapi-document.js'
import { ConfigError } from '../errors/config-error.js'

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

export type InputSchema = (typeof API_SCHEMAS)[number] | (typeof ADMIN_SCHEMAS)[number]

/** Checks an input against its schema, or throws a ConfigError worded as admin 400s are. */
export function checkInput<T>(schema: InputSchema, value: unknown, where = ''): T {
  const validate = compiled(schema)
  if (!validate(value)) throw new ConfigError(inputMessage(describeInputErrors(validate.errors ?? [], where)))
  const unbounded = unboundedPart(value)
  if (unbounded !== undefined)
    throw new ConfigError(`${pathOf(where, unbounded.path, 'the input')} ${unbounded.problem}`)
  return value as T
}

/** Bounds nesting where a schema leaves a field open (a HAR's `_` fields). */
export const MAX_INPUT_DEPTH = 64

/** Finds what Ajv passes but may not: a non-finite number, or too deep. */
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
    // Last first: names the first fault in document order.
    for (let i = members.length - 1; i >= 0; i--)
      pending.push({ value: members[i]![1], name: members[i]![0], parent: step, depth: step.depth + 1 })
  }
  return undefined
}

// Compiled when first needed; `verbose` keeps each error's schema, for its words.
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
