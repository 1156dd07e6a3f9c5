/** Holds an answer before `toResponse` makes it a Response. */
export interface Reply {
  status: number
  headers: Headers
  body?: unknown
}
