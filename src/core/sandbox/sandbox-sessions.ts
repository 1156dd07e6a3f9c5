import { checkInput } from '../contract/check-input.js'
import { ConfigError } from '../errors/config-error.js'
import { learnCapsule } from '../learning/learn-capsule.js'
import { readCapsule } from '../sessions/capsule.js'
import type { SessionLifecycle, SessionStart } from '../sessions/session-lifecycle.js'
import { checkSessionName } from '../sessions/session-name.js'
import type { Timing } from '../state/maybe-promise.js'
import { capsuleOf, type ProcessControls, summarize } from './create-session-controls.js'
import type { Sandbox, SessionInit } from './sandbox.js'

/**
 * Serves `sandbox.sessions` (and the admin API's `/sessions`) from `sessions`: checks what a
 * caller gives, as the admin document describes it, and summarizes what the sessions answer.
 */
export function createSandboxSessions<Of extends Timing>(
  sessions: SessionLifecycle<Of>,
  process: ProcessControls<Of>,
): Sandbox<Of>['sessions'] {
  return {
    list: async () => Promise.all((await sessions.list()).map((world) => summarize(world, process))),
    async get(name) {
      const world = await sessions.find(name)
      return world === undefined ? undefined : summarize(world, process)
    },
    async put(name, init = {}) {
      checkSessionName(name, 'session name', process.secrets())
      return summarize(await sessions.put(name, startOf(init, sessions, process.resolved.now())), process)
    },
    delete: (name) => sessions.delete(name),
    deleteAll: ({ prefix } = {}) => sessions.deleteAll(prefix),
    async capsule(name) {
      const world = await sessions.find(name)
      return world === undefined ? undefined : capsuleOf(world, process)
    },
  }
}

/** Where a session put with `init` starts, checked; a recording is learned into a capsule made at `now`. */
function startOf<Of extends Timing>(init: SessionInit, sessions: SessionLifecycle<Of>, now: number): SessionStart {
  // A capsule or a recording is checked on its own, so that a newer version is named before anything else.
  const { capsule, har, ...rest } = init as { capsule?: unknown; har?: unknown; from?: string }
  checkInput('SessionInit', rest, 'init')
  const sources = [capsule !== undefined && 'capsule', har !== undefined && 'har', rest.from !== undefined && 'from']
  const given = sources.filter(Boolean)
  if (given.length > 1) throw new ConfigError(`init: give one of from, capsule or har, not ${given.join(' and ')}`)
  if (capsule !== undefined) {
    sessions.served('Capsules')
    return { capsule: readCapsule(capsule, 'capsule') }
  }
  if (har !== undefined) {
    sessions.served('Recordings')
    return { capsule: learnCapsule(har, 'har', now) }
  }
  return rest.from === undefined ? {} : { from: rest.from }
}
