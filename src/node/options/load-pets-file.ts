import { readFile } from 'node:fs/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import type { Pet } from '../../core/store/pet.js'
import { resolvePets } from '../../core/store/resolve-pets.js'

/**
 * Reads a pets file (`--pets-file`): a JSON array of `{ "name", "categoryId", "status"?, "id"? }`,
 * checked against the contract's schemas by `resolvePets`. Any problem is a ConfigError naming the
 * file and, for a bad pet, its index and field: `pets.json [2].categoryId: must be an integer ≥ 1`.
 */
export async function loadPetsFile(path: string): Promise<Pet[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`cannot read pets file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`pets file ${path} is not valid JSON: ${(error as Error).message}`)
  }
  return resolvePets(json, path)
}
