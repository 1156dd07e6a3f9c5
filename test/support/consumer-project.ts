import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * A throwaway project that has this checkout installed as `petstore-sandbox` (linked, as
 * `npm install <folder>` links it), so `npx petstore-sandbox` there runs it the way a user's does.
 */
export async function consumerProject(): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'petstore-consumer-'))
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }))
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true })
  await symlink(ROOT, join(project, 'node_modules', 'petstore-sandbox'))
  await symlink(
    '../petstore-sandbox/bin/petstore-sandbox.js',
    join(project, 'node_modules', '.bin', 'petstore-sandbox'),
  )
  return project
}
