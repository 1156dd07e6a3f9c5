import { seedPets } from '../dist/core/store/seed-pets.js'

/**
 * The bytes the sandbox answers to `GET /v1/pets?limit=20` with the default seed: the floor and
 * raw servers send exactly these, so every server of the comparison moves the same payload.
 */
export function constantListBody() {
  return JSON.stringify(Array.from(seedPets(1, 20), (pet, index) => ({ id: index + 1, ...pet })))
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
