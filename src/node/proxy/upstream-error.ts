/** The upstream gave no answer: it could not be reached, or did not answer in time. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout',
    message: string,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}
