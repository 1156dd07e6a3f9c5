/** A value now (the in-memory state) or later (shared state, one round trip away). */
export type MaybePromise<T> = T | Promise<T>
