import { readJsonFile } from './read-input-file.js'
import type { Pet } from '../../core/store/pet.js'
import { resolvePets } from '../../core/store/resolve-pets.js'

/** Reads a pets file (`--pets-file`). */
export async function loadPetsFile(path: string): Promise<Pet[]> {
  const json = await readJsonFile(path, 'pets file')
  return resolvePets(json, `pets file ${path}:`)
}
