/** The server under verification could not be reached or did not answer: nothing can be judged. */
export class VerifyConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'VerifyConnectionError'
  }
}
