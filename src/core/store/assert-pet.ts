import type { Pet } from './pet.js'
import { createPetSchema } from './create-pet-schema.js'

const petSchema = createPetSchema()

/**
 * Checks a pet arranged by a test (`sandbox.pets.create` / `put`) against the same schema the
 * store enforces, and throws a `TypeError` naming every offending field: a test that arranges an
 * impossible pet learns it at once, not from a confusing answer later.
 */
export function assertPet(pet: Pet): Pet {
  const result = petSchema['~standard'].validate(pet)
  if (result instanceof Promise) throw new TypeError('the pet schema must validate synchronously')
  if (result.issues !== undefined) {
    throw new TypeError(`not a valid pet: ${result.issues.map((issue) => issue.message).join('; ')}`)
  }
  return pet
}
