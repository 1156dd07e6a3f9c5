import { ConfigError } from '../errors/config-error.js'

/** Reports a session asked for by name that does not exist, which the admin API answers 404. */
export class UnknownSession extends ConfigError {
  constructor(where: string, name: string) {
    super(`${where}: no session ${JSON.stringify(name)}`)
    this.name = 'UnknownSession'
  }
}

/** Reports a named session asked of a state that keeps none (D34): 501 `not_implemented`. */
export class SessionsNotServed extends ConfigError {
  constructor(what = 'Named sessions (X-Sandbox-Session)') {
    super(
      `${what} are not yet served on a shared state (--redis); send no X-Sandbox-Session to use the default session`,
    )
    this.name = 'SessionsNotServed'
  }
}

/** Reports a change the default session cannot take (D34): 409 `conflict`. */
export class SessionConflict extends ConfigError {
  constructor(message: string) {
    super(message)
    this.name = 'SessionConflict'
  }
}

/** Refuses to delete the default session, alike in every registry. */
export function defaultNotDeleted(): SessionConflict {
  return new SessionConflict('the default session cannot be deleted: reset it, or PUT it to start it over')
}
