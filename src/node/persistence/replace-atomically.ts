import { chown, open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Replaces a file by temp file, fsync, rename and fsync of the directory, keeping its mode and owner. */
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
