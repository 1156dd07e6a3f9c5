import { Ajv, type ErrorObject } from 'ajv'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { Pet } from './pet.js'

/** Holds a pet given instead of generated ones. */
export interface GivenPet {
  id?: number
  name: string
  categoryId: number
  status?: Pet['status']
}

interface FieldSchema {
  type?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  enum?: readonly string[]
  $ref?: string
}

const schemas = (
  openapiDocument.components as {
    schemas: Record<string, { properties: Record<string, FieldSchema>; required: string[] }>
  }
).schemas
const FIELDS: Record<string, FieldSchema> = Object.fromEntries(
  Object.keys({ ...schemas.Pet!.properties, ...schemas.NewPet!.properties }).map((name) => [
    name,
    { ...resolveRef(schemas.Pet!.properties[name] ?? {}), ...resolveRef(schemas.NewPet!.properties[name] ?? {}) },
  ]),
)
const FIELD_NAMES = Object.keys(FIELDS)
const PETS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: schemas.NewPet!.required,
    properties: FIELDS,
    additionalProperties: false,
  },
}

/** Checks given pets and numbers them ascending, or throws a `ConfigError`. */
export function resolvePets(pets: unknown, source: string): Pet[] {
  const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(PETS_SCHEMA)
  if (!validate(pets)) throw new ConfigError(at(source, describe(validate.errors ?? [])))
  const numbered: Pet[] = []
  let last = 0
  for (const [index, pet] of (pets as GivenPet[]).entries()) {
    const id = pet.id ?? last + 1
    if (id <= last)
      throw new ConfigError(
        at(source, `[${index}].id: must be above ${last}, the id before it (ids ascend in the order given)`),
      )
    if (!Number.isSafeInteger(id))
      throw new ConfigError(at(source, `[${index}].id: the pet before it has the highest id there is`))
    numbered.push({
      id,
      name: pet.name,
      categoryId: pet.categoryId,
      ...(pet.status === undefined ? {} : { status: pet.status }),
    })
    last = id
  }
  return numbered
}

/** Prefixes a problem with its source (`pets file p.json: [2].categoryId: …`). */
function at(source: string, problem: string): string {
  if (source.endsWith(':')) return `${source} ${problem}`
  return problem.startsWith('[') ? `${source} ${problem}` : `${source}: ${problem}`
}

/** Words the first bad pet's problems from the schema. */
function describe(errors: readonly ErrorObject[]): string {
  const first = errors[0]
  if (first === undefined) return 'not valid'
  if (first.instancePath === '') return 'must be a JSON array of pets'
  const index = first.instancePath.split('/')[1]
  const problems = new Map<string, string>()
  for (const error of errors) {
    const steps = error.instancePath.split('/')
    if (steps[1] !== index) continue
    const field = steps[2]
    if (field !== undefined) problems.set(field, `must be ${expected(FIELDS[field] ?? {})}`)
    else if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty
      const fields = FIELD_NAMES.map((name) => (schemas.NewPet!.required.includes(name) ? name : `${name}?`))
      problems.set(missing, `is required (a pet is ${fields.join(', ')})`)
    } else if (error.keyword === 'additionalProperties') {
      const unknown = (error.params as { additionalProperty: string }).additionalProperty
      problems.set(
        JSON.stringify(unknown).slice(1, -1),
        `is not a field of a pet; its fields are ${FIELD_NAMES.join(', ')}`,
      )
    } else problems.set('', 'must be an object')
  }
  return [...problems].map(([field, problem]) => `[${index}]${field === '' ? '' : `.${field}`}: ${problem}`).join('; ')
}

/** Words what a field's schema allows (`an integer ≥ 1`). */
function expected(field: FieldSchema): string {
  if (field.enum !== undefined) return `one of ${field.enum.join(', ')}`
  if (field.type === 'integer') {
    const bounds = [
      field.minimum === undefined ? '' : ` ≥ ${field.minimum}`,
      field.maximum === undefined || field.maximum >= Number.MAX_SAFE_INTEGER ? '' : ` ≤ ${field.maximum}`,
    ]
    return `an integer${bounds.filter(Boolean).join(' and')}`
  }
  if (field.type === 'string') {
    const length =
      field.maxLength === undefined
        ? `at least ${field.minLength ?? 0} characters`
        : `${field.minLength ?? 0} to ${field.maxLength} characters`
    return `a string of ${length}${field.pattern === '\\S' ? ', not blank' : ''}`
  }
  return `a ${field.type ?? 'value'}`
}

function resolveRef(field: FieldSchema): FieldSchema {
  const name = field.$ref?.replace('#/components/schemas/', '')
  return name === undefined ? field : (schemas[name] as unknown as FieldSchema)
}
