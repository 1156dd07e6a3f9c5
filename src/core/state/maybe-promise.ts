/** How a state answers: at once (`'now'`, its own memory) or in a promise (`'later'`, shared), from the same code. */
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
