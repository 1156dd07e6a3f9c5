import { readFile } from 'node:fs/promises'
import type { KeyChanges, KeyStorage } from '../../core/auth/key-storage.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { createDiskHealth, unwritable } from './create-disk-health.js'
import { replaceAtomically } from './replace-atomically.js'

/** Opens the runtime key file beside the `--state` journal (D26). */
export async function openKeyFile(path: string): Promise<KeyStorage> {
  let text: string | undefined
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw new ConfigError(`cannot read key file ${path}: ${code ?? String(error)}`)
  }
  const restored = text === undefined ? { put: [], revoked: [] } : parse(text, path)
  const disk = createDiskHealth(path)
  return {
    restored,
    async commit(changes: KeyChanges) {
      try {
        await replaceAtomically(path, `${JSON.stringify({ petstoreSandboxKeys: 1, ...changes }, null, 2)}\n`)
      } catch (error) {
        throw unwritable('--state key file', disk.failed(error))
      }
      disk.succeeded()
    },
    notReady() {
      const trouble = disk.notReady()
      return trouble === undefined ? undefined : `the --state key file cannot be written (${trouble})`
    },
  }
}

function parse(text: string, path: string): KeyChanges {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const file = value as { petstoreSandboxKeys?: unknown; put?: unknown; revoked?: unknown } | undefined
  if (
    typeof file !== 'object' ||
    file === null ||
    file.petstoreSandboxKeys !== 1 ||
    !Array.isArray(file.put) ||
    !Array.isArray(file.revoked) ||
    file.revoked.some((key) => typeof key !== 'string')
  ) {
    throw new ConfigError(
      `key file ${path} is not a petstore-sandbox key file; it was left untouched (repair it,` +
        ' or start with another --state file)',
    )
  }
  return { put: file.put, revoked: file.revoked as string[] }
}
