import { chown, open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * temp file + fsync + rename + fsync of the directory: the file is either old or new (the --state
 * journal compacted on start, the key file on each change). The new file keeps `existing`'s mode
 * and, where this process may, its owner; a failed write leaves no temporary file behind.
 */
export async function replaceAtomically(
  path: string,
  contents: string,
  existing?: { mode: number; uid: number; gid: number },
): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    const file = await open(temporary, 'w', existing === undefined ? 0o644 : existing.mode & 0o7777)
    try {
      if (existing !== undefined) await file.chmod(existing.mode & 0o7777)
      await file.writeFile(contents)
      await file.sync()
    } finally {
      await file.close()
    }
    if (existing !== undefined) await chown(temporary, existing.uid, existing.gid).catch(() => undefined)
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => undefined)
    throw error
  }
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}
