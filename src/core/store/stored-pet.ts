import type { Pet } from './pet.js'

/** Builds `pet`'s record by constructor, fields in-object (BENCHMARKS.md, "What the profiles changed"). */
export function storedPet(pet: Pet): Pet {
  return new StoredPet(pet)
}

interface StoredPetConstructor {
  new (pet: Pet): Pet
  prototype: object
}

// A function: a class's prototype cannot be Object.prototype (`toStrictEqual`).
const StoredPet = function (this: Pet, pet: Pet) {
  this.id = pet.id
  this.name = pet.name
  this.categoryId = pet.categoryId
  if (pet.status !== undefined) this.status = pet.status
} as unknown as StoredPetConstructor
StoredPet.prototype = Object.prototype
