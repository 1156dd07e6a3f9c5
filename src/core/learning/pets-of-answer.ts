import { checkInput } from '../contract/check-input.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { Pet } from '../store/pet.js'

// Keeps only the contract's fields.
const PET_FIELDS = Object.keys(
  (openapiDocument.components as { schemas: { Pet: { properties: Record<string, unknown> } } }).schemas.Pet.properties,
)

// Bounds the dropped names kept: a body may carry any number.
const MAX_DROPPED_NAMES = 20

/** Holds the pets an answer showed, and what the contract cannot hold. */
export interface AnswerPets {
  pets: Pet[]
  /** Counts the pets left out as no `Pet` (no name, an id of 0). */
  unheld: number
  /** Names the first few fields beyond the contract. */
  dropped: string[]
}

/** Reads the pets of a listPets 200, createPet 201 or getPet 200 (D41). */
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
