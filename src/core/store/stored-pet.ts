import type { Pet } from './pet.js'

/**
 * The record the store keeps for `pet`: a plain object (prototype `Object.prototype`, so it
 * equals, clones and serialises like the literal `{ id, name, categoryId, status }`) with the
 * contract's fields only, `status` left out when the pet has none.
 *
 * A constructor rather than a literal: the objects it builds get in-object room for the two hidden
 * properties `@msw/data` adds to every record (see msw-data-workaround.ts), where a literal would
 * hang them off a separate property array (BENCHMARKS.md, "What the profiles changed").
 *
 * @example
 * storedPet({ id: 1, name: 'Ace', categoryId: 2 }) // { id: 1, name: 'Ace', categoryId: 2 }
 */
export function storedPet(pet: Pet): Pet {
  return new StoredPet(pet)
}

interface StoredPetConstructor {
  new (pet: Pet): Pet
  prototype: object
}

// A function rather than a class: a class's prototype cannot be replaced, and records must keep
// Object.prototype (a consumer's `toStrictEqual` compares prototypes).
const StoredPet = function (this: Pet, pet: Pet) {
  this.id = pet.id
  this.name = pet.name
  this.categoryId = pet.categoryId
  if (pet.status !== undefined) this.status = pet.status
} as unknown as StoredPetConstructor
StoredPet.prototype = Object.prototype
