import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'

/** temp file + fsync + rename + fsync of the directory: the file is either old or new (as the --state journal is compacted). */
export async function replaceAtomically(path: string, contents: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  const file = await open(temporary, 'w')
  try {
    await file.writeFile(contents)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(temporary, path)
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}
