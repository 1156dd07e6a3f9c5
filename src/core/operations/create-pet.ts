import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/** D5: names are 1 to 200 characters (code points) as sent, as the contract's maxLength says. */
export const MAX_NAME_LENGTH = 200

/**
 * `POST /pets` and `sandbox.pets.create`, one path for both: `store` stores a NewPet as the API
 * does (a name of 1 to 200 characters as sent, not all white space, stored trimmed, D5; the
 * default status when none is given, D4) and returns the stored Pet. Over HTTP the contract's
 * NewPet schema has refused any other name by now; in-process a name out of bounds is refused
 * with `refuse`'s error, a `TypeError`. Other properties, a client-sent `id` among them, are
 * ignored (D7).
 */
export function createPet(store: PetRepository, defaultStatus: PetStatus | undefined) {
  async function stored(pet: NewPet, refuse: (message: string) => Error): Promise<Pet> {
    // The contract's own rule, in its validator's words, for callers it has not checked: maxLength
    // counts code points, and the pattern \S asks for one that is not white space.
    const sent = String(pet.name)
    if ([...sent].length > MAX_NAME_LENGTH) throw refuse(`name must NOT have more than ${MAX_NAME_LENGTH} characters`)
    if (!/\S/.test(sent)) throw refuse('name must match pattern "\\S"')
    const name = sent.trim()
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
