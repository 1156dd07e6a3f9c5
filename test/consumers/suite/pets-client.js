// A frontend's small client of the Animal Store API, given the fetch it calls: the global one
// (answered by msw's setupServer) or the sandbox's own `sandbox.fetch`.
import { contractCheckedFetch } from './contract.js'

/**
 * @param {{ baseUrl: string, apiKey?: string, fetch: typeof fetch }} options
 */
export function createPetsClient({ baseUrl, apiKey, fetch: fetchImpl }) {
  const checkedFetch = contractCheckedFetch(fetchImpl)

  /** @returns {Promise<{ status: number, headers: Headers, body: any }>} */
  async function call(method, path, body) {
    const headers = {}
    if (apiKey !== undefined) headers.Authorization = `Bearer ${apiKey}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const response = await checkedFetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }
  }

  return {
    /** @param {{ limit?: number, status?: string }} [query] */
    listPets: (query = {}) => call('GET', `/pets${queryString(query)}`),
    /** @param {{ name: string, categoryId: number, status?: string }} newPet */
    createPet: (newPet) => call('POST', '/pets', newPet),
    /** @param {number} id */
    getPet: (id) => call('GET', `/pets/${id}`),
  }
}

function queryString(query) {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString()
  return search === '' ? '' : `?${search}`
}
