import { readFile } from 'node:fs/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import type { KeyConfig } from '../../core/auth/key-config.js'
import { resolveKeys } from '../../core/auth/resolve-keys.js'
import { unknownField } from './unknown-field.js'

const FILE_FIELDS = ['keys']
const KEY_FIELDS = ['key', 'plan', 'perMinute', 'perDay']

/**
 * Reads a keys file: `{ "keys": [ { "key": "...", "plan": "free", "perMinute"?: n, "perDay"?: n } ] }`.
 * Any problem is a ConfigError naming the file and, where there is one, the entry; a field the
 * file does not know (a typo such as `permin`) is one, named with the nearest known field.
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
  const unknown = typeof json === 'object' && json !== null && !Array.isArray(json) ? unknownField(json, FILE_FIELDS) : undefined
  if (unknown !== undefined) throw new ConfigError(`keys file ${path}: ${unknown}`)
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('keys' in json)) {
    throw new ConfigError(`keys file ${path} must be an object with a "keys" array`)
  }
  if (Array.isArray(json.keys)) {
    json.keys.forEach((entry: unknown, index) => {
      const field = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? unknownField(entry, KEY_FIELDS) : undefined
      if (field !== undefined) throw new ConfigError(`keys file ${path}: keys[${index}].${field}`)
    })
  }
  resolveKeys(json.keys, `${path}: keys`)
  return json.keys as KeyConfig[]
}
