/**
 * The upstream gave no complete answer: it could not be reached, did not answer in time, or its
 * answer was over the proxy's cap. `reached` says whether the request may have got there: false
 * only when no connection was ever made, the one case where nothing the upstream did can be
 * duplicated by another answer (docs/decisions.md, the proxy's fallback).
 */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'too_large',
    message: string,
    readonly reached: boolean,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}
