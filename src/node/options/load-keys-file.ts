import { readFile } from 'node:fs/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import type { KeyConfig } from '../../core/auth/key-config.js'
import { resolveKeys } from '../../core/auth/resolve-keys.js'

/**
 * Reads a keys file: `{ "keys": [ { "key": "...", "plan": "free", "perMinute"?: n, "perDay"?: n } ] }`.
 * Any problem is a ConfigError naming the file and, where there is one, the entry.
 */
export async function loadKeysFile(path: string): Promise<KeyConfig[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`cannot read keys file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // V8 quotes the text around a bad token ("...key":"abc"x..."), which may be a key: drop it.
    const reason = (error as Error).message.replace(/,\s*(?:\.\.\.)?".*" is not valid JSON$/s, '')
    throw new ConfigError(`keys file ${path} is not valid JSON: ${reason}`)
  }
  if (typeof json !== 'object' || json === null || !('keys' in json)) {
    throw new ConfigError(`keys file ${path} must be an object with a "keys" array`)
  }
  resolveKeys(json.keys, `${path}: keys`)
  return json.keys as KeyConfig[]
}
