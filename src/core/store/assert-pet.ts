import type { NewPet, Pet } from './pet.js'
import { checkInput } from '../contract/check-input.js'

/** Checks a pet a test arranges against the contract's `NewPet` or `Pet`, refused in the words of `POST /v1/pets`. */
export function assertPet<Schema extends 'NewPet' | 'Pet'>(
  schema: Schema,
  pet: Schema extends 'Pet' ? Pet : NewPet,
): void {
  checkInput(schema, pet)
}
