import type { FaultInjector } from '../faults/create-fault-injector.js'
import type { SharedState } from '../state/shared-state.js'

/**
 * The fault injector of a process sharing its state: before each draw it takes up the
 * configuration last set through any process. The draws stay the process's own, seeded as usual.
 */
export function followSharedFaults(injector: FaultInjector, shared: SharedState): FaultInjector {
  let followed = shared.faults.current()
  const follow = () => {
    const current = shared.faults.current()
    if (current !== undefined && current !== followed) {
      followed = current
      injector.configure(current)
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
