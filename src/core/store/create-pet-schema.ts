import type { StandardSchemaV1 } from '@standard-schema/spec'
import { PET_STATUSES, type Pet } from './pet.js'
import { storedPet } from './stored-pet.js'

/** Creates a stored pet's hand-written Standard Schema. */
export function createPetSchema(output: (pet: Pet) => Pet = storedPet): StandardSchemaV1<Pet, Pet> {
  return {
    '~standard': {
      version: 1,
      vendor: 'petstore-sandbox',
      validate(value) {
        const pet = value as Partial<Pet> | null
        const issues: StandardSchemaV1.Issue[] = []
        if (typeof pet !== 'object' || pet === null) return { issues: [{ message: 'a pet must be an object' }] }
        if (!Number.isSafeInteger(pet.id) || (pet.id as number) < 1)
          issues.push({ message: 'id must be a positive safe integer', path: ['id'] })
        if (typeof pet.name !== 'string' || pet.name.length === 0)
          issues.push({ message: 'name must be a non-empty string', path: ['name'] })
        if (!Number.isSafeInteger(pet.categoryId) || (pet.categoryId as number) < 1)
          issues.push({ message: 'categoryId must be a positive safe integer', path: ['categoryId'] })
        if (pet.status !== undefined && !PET_STATUSES.includes(pet.status))
          issues.push({ message: 'status is not a PetStatus', path: ['status'] })
        return issues.length > 0 ? { issues } : { value: output(pet as Pet) }
      },
    },
  }
}
