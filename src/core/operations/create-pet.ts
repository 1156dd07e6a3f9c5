import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/** D5: names are 1 to 200 characters once trimmed. */
export const MAX_NAME_LENGTH = 200

/**
 * `POST /pets` and `sandbox.pets.create`, one path for both: `store` stores a NewPet as the API
 * does (the name trimmed and 1 to 200 characters long, D5; the default status when none is given,
 * D4) and returns the stored Pet. A name out of bounds is refused with `refuse`'s error, which
 * the operation words as a 400 and the library as a `TypeError`. Over HTTP the body is valid
 * against NewPet by now; other properties, a client-sent `id` among them, are ignored (D7).
 */
export function createPet(store: PetRepository, defaultStatus: PetStatus | undefined) {
  async function stored(pet: NewPet, refuse: (message: string) => Error): Promise<Pet> {
    const name = String(pet.name).trim()
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) throw refuse(`name must be 1 to ${MAX_NAME_LENGTH} characters after trimming`)
    const status = pet.status ?? defaultStatus
    return store.create({ name, categoryId: pet.categoryId, ...(status === undefined ? {} : { status }) })
  }
  return {
    async handle({ body }) {
      const refuse = (message: string) => new HttpError(400, ErrorCode.invalidRequest, message)
      return { status: 201, body: await stored(body as unknown as NewPet, refuse) }
    },
    store: (pet: NewPet) => stored(pet, (message) => new TypeError(`not a valid pet: ${message}`)),
  } satisfies Operation & { store: unknown }
}
