import type { NewPet, Pet } from './pet.js'
import { checkInput } from '../contract/check-input.js'

/** Checks a test's pet against `NewPet` or `Pet`. */
export function assertPet<Schema extends 'NewPet' | 'Pet'>(
  schema: Schema,
  pet: Schema extends 'Pet' ? Pet : NewPet,
): void {
  checkInput(schema, pet)
}
