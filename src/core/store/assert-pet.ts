import type { NewPet, Pet } from './pet.js'
import { checkInput } from '../contract/check-input.js'

/**
 * Checks a pet arranged by a test against the contract, as every input is checked and worded
 * (check-input.ts): `sandbox.pets.create` takes what `POST /v1/pets` takes (`NewPet`, refused in the
 * same words), `put` a whole `Pet`. A test that arranges an impossible pet, or misspells a field,
 * learns it at once, not from a confusing answer later.
 */
export function assertPet<Schema extends 'NewPet' | 'Pet'>(
  schema: Schema,
  pet: Schema extends 'Pet' ? Pet : NewPet,
): void {
  checkInput(schema, pet)
}
