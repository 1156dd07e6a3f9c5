import { PET_STATUSES } from '../../core/store/pet.js'
import type { Exchange } from './exchange.js'

type Found = Array<{ promise: string; expected: string }>

/** The promises a listPets answer shows by itself: refusals of bad parameters, ordering, limit and filter. */
export function checkListAnswer(exchange: Exchange): Found {
  const found: Found = []
  const limit = exchange.query.get('limit')
  const status = exchange.query.get('status')
  const limitValid = limit === null || (/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)
  const statusValid = status === null || (PET_STATUSES as readonly string[]).includes(status)
  if (!limitValid && exchange.status < 400) found.push({ promise: 'invalid-limit-refused', expected: `400 for limit=${limit}` })
  if (!statusValid && exchange.status < 400) found.push({ promise: 'invalid-status-refused', expected: `400 for status=${status}` })
  if (exchange.status !== 200 || !Array.isArray(exchange.body)) return found
  const pets = exchange.body as Array<{ id?: unknown; status?: unknown }>
  const ids = pets.map((pet) => pet?.id)
  if (ids.some((id, index) => index > 0 && !((id as number) > (ids[index - 1] as number)))) {
    found.push({ promise: 'ascending-ids', expected: `ids in ascending order, got ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}` })
  }
  // An invalid limit answered at all is invalid-limit-refused's finding, not a bound to hold to.
  const max = limit === null ? 20 : Number(limit)
  if (limitValid && pets.length > max) found.push({ promise: 'limit-default-and-bounds', expected: `at most ${max} pets, got ${pets.length}` })
  if (status !== null && statusValid && pets.some((pet) => pet?.status !== status)) {
    found.push({ promise: 'status-filter', expected: `only pets with status ${status}` })
  }
  return found
}
