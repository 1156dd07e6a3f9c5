import { Ajv, type ErrorObject } from 'ajv'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { Pet } from './pet.js'

/**
 * A pet given to the sandbox instead of the generated ones (`createSandbox({ pets: [...] })`, the
 * CLI's `--pets-file`): the contract's `NewPet`, with an optional `id`.
 *
 * @example
 * const pet: GivenPet = { name: 'Biscuit', categoryId: 2, status: 'sold' }
 */
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
// A given pet is held to both of the contract's schemas: NewPet's rules for what a client may send
// (a name that is not blank) and Pet's for what is stored (at most 200 characters, no other field),
// with Pet's id made optional.
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

/**
 * Checks pets given instead of the generated ones against the contract's schemas (with Ajv) and
 * numbers them: an absent id is the one after the pet before it (1 for the first), so ids ascend
 * in the order given; a given id must be above the one before it. A bad pet throws a
 * `ConfigError` naming `source`, its index and the field: `pets [2].categoryId: must be an
 * integer ≥ 1` (a source ending with a colon, a file's `pets file p.json:`, is followed by a space).
 *
 * @example
 * resolvePets([{ name: 'Ace', categoryId: 1 }, { id: 10, name: 'Bo', categoryId: 2 }], 'pets')   // ids 1 and 10
 */
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

/**
 * A problem after its source: `pets [2].categoryId: …` in-process; after a file's prefix, which ends
 * with a colon as its JSON errors do, `pets file p.json: [2].categoryId: …`.
 */
function at(source: string, problem: string): string {
  if (source.endsWith(':')) return `${source} ${problem}`
  return problem.startsWith('[') ? `${source} ${problem}` : `${source}: ${problem}`
}

/** Every problem of the first bad pet, worded from the schema: `[2].categoryId: must be an integer ≥ 1`. */
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
      problems.set(
        missing,
        `is required (a pet is ${FIELD_NAMES.map((name) => (schemas.NewPet!.required.includes(name) ? name : `${name}?`)).join(', ')})`,
      )
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

/** What a field's schema allows, in words: `an integer ≥ 1`, `a string of 1 to 200 characters, not blank`. */
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
