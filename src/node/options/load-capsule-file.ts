import { ConfigError } from '../../core/errors/config-error.js'
import { type Capsule, readCapsule } from '../../core/sessions/capsule.js'
import { readJsonFile } from './read-input-file.js'

/**
 * Reads a capsule file (`--from`, what `GET /__sandbox/sessions/{name}/capsule` answers) and holds
 * it to the admin document's `Capsule` as every capsule is (D34). Any problem is one ConfigError
 * starting `capsule file <path>:` and naming the field.
 *
 * @example
 * const capsule = await loadCapsuleFile('bug-123.capsule.json')
 */
export async function loadCapsuleFile(path: string): Promise<Capsule> {
  const json = await readJsonFile(path, 'capsule file')
  try {
    return readCapsule(json, 'capsule')
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`capsule file ${path}: ${error.message}`)
    throw error
  }
}
