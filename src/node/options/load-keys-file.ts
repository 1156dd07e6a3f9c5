import type { KeyConfig } from '../../core/auth/key-config.js'
import { resolveKeys } from '../../core/auth/resolve-keys.js'
import { readInputFile } from './read-input-file.js'

/** Reads a keys file; problems name the entry, never a key. */
export async function loadKeysFile(path: string): Promise<KeyConfig[]> {
  const file = await readInputFile<{ keys: KeyConfig[] }>(path, 'KeysFile', 'keys file', ({ keys }) =>
    resolveKeys(keys),
  )
  return file.keys
}
