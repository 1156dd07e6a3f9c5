import { ConfigError } from '../../core/errors/config-error.js'
import { type Capsule, readCapsule } from '../../core/sessions/capsule.js'
import { isRecordedHar, learnCapsule } from '../../core/learning/learn-capsule.js'
import { readJsonFile } from './read-input-file.js'

/** Reads a capsule file (`--from`), or learns one from a recording (D34, D41). */
export async function loadCapsuleFile(path: string, now: () => number = Date.now): Promise<Capsule> {
  const recording = path.toLowerCase().endsWith('.har')
  const json = await readJsonFile(path, recording ? 'har file' : 'capsule file')
  if (recording || isRecordedHar(json)) return learned(path, json, now)
  try {
    return readCapsule(json, 'capsule')
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`capsule file ${path}: ${error.message}`)
    throw error
  }
}

/** Learns a recording's capsule (D41). */
export async function learnCapsuleFile(path: string, now: () => number = Date.now): Promise<Capsule> {
  return learned(path, await readJsonFile(path, 'har file'), now)
}

function learned(path: string, json: unknown, now: () => number): Capsule {
  try {
    return learnCapsule(json, 'har', now())
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`har file ${path}: ${error.message}`)
    throw error
  }
}
