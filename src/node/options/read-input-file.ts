import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import { checkInput, type InputSchema } from '../../core/contract/check-input.js'
import { findDuplicateKeyAt } from '../../core/validation/find-duplicate-key.js'

/** Reads a JSON input file held to its schema, never quoting it in errors. */
export async function readInputFile<T>(
  path: string,
  schema: InputSchema,
  what: string,
  check?: (value: T) => void,
): Promise<T> {
  const json = await readJsonFile(path, what)
  try {
    const value = checkInput<T>(schema, json)
    check?.(value)
    return value
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${what} ${path}: ${error.message}`)
    throw error
  }
}

/** Reads a file's JSON as a request body is held (D9), a regular file only. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  const text = await readText(path, what)
  if (text.charCodeAt(0) === 0xfeff)
    throw new ConfigError(`${what} ${path}: starts with a byte order mark; save it as UTF-8 without one`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`${what} ${path}: not valid JSON ${describeSyntaxError(text, error)}`)
  }
  const duplicate = findDuplicateKeyAt(text)
  if (duplicate !== undefined)
    throw new ConfigError(`${what} ${path}: has a key twice in one object, ${lineAndColumn(text, duplicate.at)}`)
  return value
}

async function readText(path: string, what: string): Promise<string> {
  let bytes: Uint8Array
  try {
    // Opening a FIFO would wait for a writer, until SIGKILL.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    try {
      const stats = await handle.stat()
      if (!stats.isFile()) throw new ConfigError(`cannot read ${what} ${path}: not a regular file (${kindOf(stats)})`)
      bytes = await handle.readFile()
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    // Keeps a BOM in the text, so it is named rather than dropped.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new ConfigError(`${what} ${path}: not valid UTF-8`)
  }
}

function kindOf(stats: import('node:fs').Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a file'
}

/** Says where JSON.parse failed, never quoting the text. */
function describeSyntaxError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  if (/^Unexpected end of JSON input/.test(message)) return 'at its end: it stops before the JSON does'
  const named = /at position (\d+)/.exec(message)
  return lineAndColumn(text, named === null ? firstBadOffset(text) : Number(named[1]))
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n')
  return `at line ${before.length}, column ${before.at(-1)!.length + 1}`
}

/** Finds where valid JSON stops, by binary search over prefixes. */
function firstBadOffset(text: string): number {
  const viable = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length))
      return true
    } catch (error) {
      const message = (error as Error).message
      return /^Unexpected end of JSON input/.test(message) || new RegExp(`at position ${length}\\b`).test(message)
    }
  }
  let low = 0
  let high = text.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (viable(middle)) low = middle
    else high = middle - 1
  }
  return low
}
