import type { PetStatus } from 'petstore-sandbox'
import { createPetsClient, type PetsClient, type Result } from '../../consumer/pets-client.js'

/**
 * The demo's UI: lists pets with a status filter, creates pets, looks one up through the
 * deprecated endpoint, and shows the rate-limit headers and any refusal of every response.
 */
export function startApp(document: Document, { baseUrl }: { baseUrl: string }) {
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
  const keySelect = $<HTMLSelectElement>('key')
  const statusSelect = $<HTMLSelectElement>('status')
  const list = $<HTMLUListElement>('pets')
  const message = $<HTMLParagraphElement>('message')
  const deprecation = $<HTMLParagraphElement>('deprecation')
  let requests = 0

  const client = (): PetsClient => createPetsClient({ baseUrl, apiKey: keySelect.value })

  /** Every answer updates the rate-limit panel, and a refusal shows its message. */
  function show<T>(result: Result<T>): result is Extract<Result<T>, { ok: true }> {
    requests++
    document.body.dataset.requests = String(requests)
    $('limit').textContent = String(result.rateLimit.limit)
    $('remaining').textContent = String(result.rateLimit.remaining)
    $('reset').textContent = `${result.rateLimit.resetsAt.toISOString().slice(11, 19)} UTC`
    if (result.ok) {
      message.hidden = true
      return true
    }
    const { error, rateLimit } = result
    message.textContent =
      error.status === 429
        ? `Rate limit reached: ${error.message} (Retry-After: ${rateLimit.retryAfterSeconds ?? '?'} s)`
        : `${error.status} ${error.code}: ${error.message}`
    message.dataset.code = error.code
    message.hidden = false
    return false
  }

  async function refresh() {
    list.setAttribute('aria-busy', 'true')
    const status = (statusSelect.value || undefined) as PetStatus | undefined
    const result = await client().listPets({ limit: 100, ...(status === undefined ? {} : { status }) })
    if (show(result)) {
      list.replaceChildren(
        ...result.data.map((pet) => {
          const item = document.createElement('li')
          item.dataset.id = String(pet.id)
          item.textContent = `#${pet.id} ${pet.name}`
          const badge = document.createElement('span')
          badge.className = 'status'
          badge.textContent = pet.status ?? 'no status'
          item.append(badge)
          return item
        }),
      )
    }
    list.setAttribute('aria-busy', 'false')
  }

  $<HTMLButtonElement>('refresh').addEventListener('click', () => void refresh())
  statusSelect.addEventListener('change', () => void refresh())
  keySelect.addEventListener('change', () => void refresh())

  $<HTMLFormElement>('create').addEventListener('submit', (event) => {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    void (async () => {
      const result = await client().createPet({
        name: String(form.get('name')),
        categoryId: Number(form.get('categoryId')),
        status: String(form.get('status')) as PetStatus,
      })
      if (show(result)) await refresh()
    })()
  })

  $<HTMLFormElement>('lookup').addEventListener('submit', (event) => {
    event.preventDefault()
    const petId = Number(new FormData(event.target as HTMLFormElement).get('petId'))
    void (async () => {
      const result = await client().getPet(petId)
      const found = show(result)
      // One banner at a time: past the sunset the answer is a 410, and "was removed" replaces
      // both "will be removed" and the refusal message.
      const removed = !result.ok && result.error.status === 410
      if (result.deprecation !== undefined) {
        const { sunset, successor } = result.deprecation
        const instead = successor === undefined ? '' : `; use ${successor} instead`
        deprecation.textContent = removed
          ? `GET /pets/{petId} was removed on ${sunset.toUTCString()}${instead}.`
          : `GET /pets/{petId} is deprecated and will be removed on ${sunset.toUTCString()}${instead}.`
        deprecation.hidden = false
      }
      if (removed) message.hidden = true
      $('found').textContent = found
        ? `#${result.data.id} ${result.data.name} (${result.data.status ?? 'no status'})`
        : ''
    })()
  })

  /** Hides what the last lookup answered: after the clock moved, its banner may say the wrong thing. */
  function forgetLookup() {
    deprecation.hidden = true
    $('found').textContent = ''
  }

  void refresh()
  return { refresh, forgetLookup }
}
