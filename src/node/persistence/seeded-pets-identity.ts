import { createHash } from 'node:crypto'
import type { NewPet } from '../../core/store/pet.js'

/** Which seeded pets a `--state` file or a shared Redis extends (D33). */
export interface SeededPetsIdentity {
  seed: number
  /** The highest seeded id. */
  pets: number
  given?: string | undefined
  /** Names given pets' source in a refusal; never stored. */
  givenBy?: string | undefined
}

export const GIVEN_PETS_DIGEST = /^[0-9a-f]{64}$/

/** Digests given pets as served, not the file's bytes, so reformatting keeps it. */
export function digestGivenPets(pets: Iterable<NewPet & { id?: number }>): string {
  const hash = createHash('sha256')
  let id = 0
  for (const pet of pets) {
    id = pet.id ?? id + 1
    hash.update(`${JSON.stringify([id, pet.name, pet.categoryId, pet.status ?? null])}\n`)
  }
  return hash.digest('hex')
}

/** Says why `current` cannot take up a state extending `stored` (D33), to follow "extends"; undefined if it can. */
export function seededPetsMismatch(stored: SeededPetsIdentity, current: SeededPetsIdentity): string | undefined {
  if (stored.given === undefined) {
    const generated = `pets seeded with --seed ${stored.seed} --pets ${stored.pets}`
    if (current.given !== undefined)
      return `${generated}, not those of ${current.givenBy ?? 'a --pets-file'}; start with those`
    return stored.seed === current.seed && stored.pets === current.pets ? undefined : `${generated}; start with those`
  }
  if (stored.given === current.given) return undefined
  const theirs = `the pets of a --pets-file (sha256 ${stored.given.slice(0, 12)}…)`
  if (current.given === undefined) return `${theirs}, not generated ones; start with that --pets-file`
  const these = current.givenBy === undefined ? 'this one' : `this ${current.givenBy.replace(/^an? /, '')}`
  return (
    `${theirs}, not those of ${these} (sha256 ${current.given.slice(0, 12)}…: another pet, field,` +
    ' id or order); start with that --pets-file'
  )
}
