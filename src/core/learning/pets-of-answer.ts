import { checkInput } from '../contract/check-input.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { Pet } from '../store/pet.js'

// The fields of the contract's Pet: what a pet learned from another backend keeps.
const PET_FIELDS = Object.keys(
  (openapiDocument.components as { schemas: { Pet: { properties: Record<string, unknown> } } }).schemas.Pet.properties,
)

// How many names of dropped fields are told: a body may carry any number.
const MAX_DROPPED_NAMES = 20

/** What a learned answer showed: its pets, and how many it showed that the contract cannot hold. */
export interface AnswerPets {
  pets: Pet[]
  /** Pets whose contract fields are no Pet of the contract (no name, an id of 0): left out. */
  unheld: number
  /** Fields beyond the contract's that the pets carried, dropped (`createdAt`); the first few names. */
  dropped: string[]
}

/**
 * The pets an answer of the API shows, as the contract holds them (D41): a listing's (`listPets`
 * 200), a create's (`createPet` 201), a get's (`getPet` 200); none for any other answer. Each is
 * kept to the contract's fields; one that is then no `Pet` of the contract is counted, not kept.
 *
 * @example
 * petsOfAnswer('listPets', 200, [{ id: 3, name: 'Ace', categoryId: 1, createdAt: '…' }])   // pets [{ id: 3, … }], dropped ['createdAt']
 */
export function petsOfAnswer(operationId: string, status: number, body: unknown): AnswerPets {
  const shown =
    operationId === 'listPets' && status === 200
      ? body
      : (operationId === 'createPet' && status === 201) || (operationId === 'getPet' && status === 200)
        ? [body]
        : []
  const found: AnswerPets = { pets: [], unheld: 0, dropped: [] }
  if (!Array.isArray(shown)) return found
  const dropped = new Set<string>()
  for (const item of shown) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      found.unheld++
      continue
    }
    const kept: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(item)) {
      if (PET_FIELDS.includes(name)) kept[name] = value
      else if (dropped.size < MAX_DROPPED_NAMES) dropped.add(name)
    }
    try {
      found.pets.push(checkInput<Pet>('Pet', kept))
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      found.unheld++
    }
  }
  found.dropped = [...dropped]
  return found
}
