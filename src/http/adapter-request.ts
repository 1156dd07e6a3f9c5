/**
 * A Request made by the sandbox's node:http adapter. Answers to it may leave their JSON body out
 * of the Response (see `jsonResponse`): the adapter writes the JSON text itself, so building the
 * body's web stream would be work nobody reads. Requests made anywhere else (msw's interceptors
 * in-process, the service worker in a browser) are plain Requests and get ordinary Responses.
 *
 * @example
 * new AdapterRequest('http://127.0.0.1:4010/v1/pets', { headers }) instanceof Request // true
 */
export class AdapterRequest extends Request {}
