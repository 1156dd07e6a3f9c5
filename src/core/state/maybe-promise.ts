/** `'now'` answers from memory, `'later'` in a promise (shared). */
export type Timing = 'now' | 'later'

export type Answer<T, Of extends Timing> = Of extends 'later' ? Promise<T> : T

export type MaybePromise<T> = T | Promise<T>

/** Runs `next` on `value` now, or once its promise resolves: the in-memory path stays free of promises. */
export function andThen<T, U, C>(
  value: MaybePromise<T>,
  next: (value: T, context: C) => MaybePromise<U>,
  context: C,
): MaybePromise<U> {
  return value instanceof Promise ? value.then((resolved) => next(resolved, context)) : next(value, context)
}

/** Hands what `run` gives to `next`, or what it throws to `failed`, now or once its promise settles. */
export function settleWith<T, U>(
  run: () => MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
  failed: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  let value: MaybePromise<T>
  try {
    value = run()
  } catch (error) {
    return failed(error)
  }
  return value instanceof Promise ? value.then(next, failed) : next(value)
}
