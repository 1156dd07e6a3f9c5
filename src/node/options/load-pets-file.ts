import { readJsonFile } from './read-input-file.js'
import type { Pet } from '../../core/store/pet.js'
import { resolvePets } from '../../core/store/resolve-pets.js'

/** Reads a pets file (`--pets-file`), a JSON array of pets checked by `resolvePets`. */
export async function loadPetsFile(path: string): Promise<Pet[]> {
  const json = await readJsonFile(path, 'pets file')
  // Prefixed as the file's JSON errors are (read-input-file.ts).
  return resolvePets(json, `pets file ${path}:`)
}
