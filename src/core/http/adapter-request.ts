// A brand only this module can write: a host environment can replace the global Request class
// (vitest's jsdom environment does, with a Symbol.hasInstance that claims every subclass), but it
// cannot forge a property under a symbol it never sees, so `instanceof` is not used to decide.
const MADE_BY_ADAPTER = Symbol('petstore-sandbox.adapterRequest')

/**
 * A Request made by the sandbox's node:http adapter. Answers to it may leave their JSON body out
 * of the Response (see `jsonResponse`): the adapter writes the JSON text itself, so building the
 * body's web stream would be work nobody reads. Requests made anywhere else (msw's interceptors
 * in-process, the service worker in a browser) are plain Requests and get ordinary Responses.
 *
 * @example
 * isAdapterRequest(new AdapterRequest('http://127.0.0.1:4010/v1/pets')) // true
 */
export class AdapterRequest extends Request {
  readonly [MADE_BY_ADAPTER] = true
}

/**
 * Whether the node:http adapter made this request (see `AdapterRequest`).
 *
 * @example
 * isAdapterRequest(new Request('http://api.test/v1/pets')) // false
 */
export function isAdapterRequest(request: Request | undefined): boolean {
  return (
    request !== undefined && (request as Partial<Record<typeof MADE_BY_ADAPTER, boolean>>)[MADE_BY_ADAPTER] === true
  )
}
