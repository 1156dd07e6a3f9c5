import { expect, it } from 'vitest'
import {
  digestGivenPets,
  GIVEN_PETS_DIGEST,
  seededPetsMismatch,
} from '../../src/node/persistence/seeded-pets-identity.js'

const pets = [
  { name: 'Ace', categoryId: 2, status: 'sold' as const },
  { id: 10, name: 'Bo', categoryId: 1 },
]

it('digests given pets as served: implicit ids written out keep the digest; any other pet, field, id or order changes it', () => {
  const digest = digestGivenPets(pets)
  expect(digest).toMatch(GIVEN_PETS_DIGEST)
  expect(digestGivenPets([{ id: 1, name: 'Ace', categoryId: 2, status: 'sold' }, pets[1]!])).toBe(digest)
  const others = [
    [{ ...pets[0]!, name: 'Ace ' }, pets[1]!],
    [{ ...pets[0]!, categoryId: 3 }, pets[1]!],
    [{ name: 'Ace', categoryId: 2 }, pets[1]!],
    [{ ...pets[0]!, status: 'pending' as const }, pets[1]!],
    [pets[0]!, { ...pets[1]!, id: 11 }],
    [
      { ...pets[1]!, id: 1 },
      { ...pets[0]!, id: 10 },
    ],
    [pets[0]!],
    [],
  ]
  const digests = others.map((other) => digestGivenPets(other))
  expect(new Set([digest, ...digests]).size).toBe(others.length + 1)
})

it('says what changed between the seeded pets a state extends and those of the process', () => {
  const given = digestGivenPets(pets)
  const other = digestGivenPets(pets.slice(0, 1))
  expect(seededPetsMismatch({ seed: 1, pets: 50 }, { seed: 1, pets: 50 })).toBeUndefined()
  expect(seededPetsMismatch({ seed: 1, pets: 50 }, { seed: 2, pets: 50 })).toBe(
    'pets seeded with --seed 1 --pets 50; start with those',
  )
  expect(seededPetsMismatch({ seed: 1, pets: 10 }, { seed: 1, pets: 10, given })).toBe(
    'pets seeded with --seed 1 --pets 10, not those of a --pets-file; start with those',
  )
  // The seed does not change given pets.
  expect(seededPetsMismatch({ seed: 1, pets: 10, given }, { seed: 7, pets: 10, given })).toBeUndefined()
  expect(seededPetsMismatch({ seed: 1, pets: 10, given }, { seed: 1, pets: 10 })).toBe(
    `the pets of a --pets-file (sha256 ${given.slice(0, 12)}…), not generated ones; start with that --pets-file`,
  )
  expect(seededPetsMismatch({ seed: 1, pets: 10, given }, { seed: 1, pets: 1, given: other })).toBe(
    `the pets of a --pets-file (sha256 ${given.slice(0, 12)}…), not those of this one (sha256 ${other.slice(0, 12)}…: another pet, field, id or order); start with that --pets-file`,
  )
})
