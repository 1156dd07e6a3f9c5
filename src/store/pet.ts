export const PET_STATUSES = ['available', 'pending', 'sold'] as const

export type PetStatus = (typeof PET_STATUSES)[number]

/** An animal as stored and returned (spec section 2). */
export interface Pet {
  id: number
  name: string
  categoryId: number
  status?: PetStatus
}

/** The fields of a pet a client provides: everything but the id. */
export type NewPet = Omit<Pet, 'id'>
