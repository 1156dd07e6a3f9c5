import { ConfigError } from '../errors/config-error.js'

/** Reports an unknown session (404). */
export class UnknownSession extends ConfigError {
  constructor(where: string, name: string) {
    super(`${where}: no session ${JSON.stringify(name)}`)
    this.name = 'UnknownSession'
  }
}

/** Reports named sessions on a state that keeps none (501). */
export class SessionsNotServed extends ConfigError {
  constructor(what = 'Named sessions (X-Sandbox-Session)') {
    super(
      `${what} are not yet served on a shared state (--redis); send no X-Sandbox-Session to use the default session`,
    )
    this.name = 'SessionsNotServed'
  }
}

/** Reports a change the default session cannot take (409). */
export class SessionConflict extends ConfigError {
  constructor(message: string) {
    super(message)
    this.name = 'SessionConflict'
  }
}

/** Refuses to delete the default session. */
export function defaultNotDeleted(): SessionConflict {
  return new SessionConflict('the default session cannot be deleted: reset it, or PUT it to start it over')
}
