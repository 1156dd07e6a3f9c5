import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

/** The refusal of a create beyond `maxPets` (docs/decisions.md#d23), worded alike by every store. */
export function storageFull(maxPets: number): HttpError {
  return new HttpError(507, ErrorCode.storageFull, `The sandbox stores at most ${maxPets} pets and is full; nothing was stored`)
}
