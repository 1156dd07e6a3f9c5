/**
 * How a state answers reads and moves: at once (`'now'`, the sandbox's own memory) or in a promise
 * (`'later'`, state shared with other processes, one round trip away). The state interfaces and
 * the `Sandbox` are typed by it, so an in-memory sandbox reads synchronously and a shared one
 * returns promises, from the same code.
 */
export type Timing = 'now' | 'later'

/**
 * A `T` as a state of timing `Of` answers it: `T` now, or a promise of it later.
 *
 * @example
 * const pets: Answer<Pet[], 'now'> = sandbox.pets.all()
 */
export type Answer<T, Of extends Timing> = Of extends 'later' ? Promise<T> : T

/** A value now or later, where the timing is not known: `Answer<T, Timing>`. */
export type MaybePromise<T> = T | Promise<T>
