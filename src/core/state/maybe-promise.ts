/** `'now'` answers from memory, `'later'` in a promise (shared). */
export type Timing = 'now' | 'later'

export type Answer<T, Of extends Timing> = Of extends 'later' ? Promise<T> : T

export type MaybePromise<T> = T | Promise<T>
