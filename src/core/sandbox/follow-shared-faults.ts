import type { FaultInjector } from '../faults/create-fault-injector.js'
import type { SharedState } from '../state/shared-state.js'

/**
 * The fault injector of a process sharing its state: before each draw it takes up the
 * configuration last set through any process, and starts over after a reset through any process.
 * The draws stay the process's own, seeded as usual.
 */
export function followSharedFaults(injector: FaultInjector, shared: SharedState): FaultInjector {
  let followed = shared.faults.current()
  let resets = shared.faults.resets()
  const follow = () => {
    const current = shared.faults.current()
    if (current !== undefined && current !== followed) {
      followed = current
      injector.configure(current)
    }
    // As a reset does on one process, so a run after a reset repeats (docs/decisions.md#d21).
    const latest = shared.faults.resets()
    if (latest !== resets) {
      resets = latest
      injector.restart()
    }
  }
  return {
    ...injector,
    config() {
      follow()
      return injector.config()
    },
    inject(operationId, headers) {
      follow()
      return injector.inject(operationId, headers)
    },
  }
}
