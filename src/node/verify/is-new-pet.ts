import { PET_STATUSES } from '../../core/store/pet.js'

/** Whether `body` is a NewPet the spec allows: an object with a string name, an integer categoryId, and a known status if any. */
export function isNewPet(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const { name, categoryId, status } = body as Record<string, unknown>
  return typeof name === 'string' && Number.isInteger(categoryId) && (status === undefined || (PET_STATUSES as readonly unknown[]).includes(status))
}
