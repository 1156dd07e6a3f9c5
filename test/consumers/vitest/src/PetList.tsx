// A component of the kind a frontend team tests: it fetches the first pets and lists them, or
// shows the API's Error message.
import { useEffect, useState } from 'react'
import type { ApiError, Pet } from 'petstore-sandbox'

export interface PetListProps {
  baseUrl: string
  apiKey: string
  /** The fetch to call; the global one unless the app injects another. */
  fetch?: typeof fetch
}

type State = { kind: 'loading' } | { kind: 'loaded'; pets: Pet[] } | { kind: 'failed'; message: string }

export function PetList({ baseUrl, apiKey, fetch: fetchImpl = (input, init) => fetch(input, init) }: PetListProps) {
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    let current = true
    fetchImpl(`${baseUrl}/pets?limit=5`, { headers: { Authorization: `Bearer ${apiKey}` } })
      .then(async (response) => {
        const body: unknown = await response.json()
        if (!current) return
        if (response.ok) setState({ kind: 'loaded', pets: body as Pet[] })
        else setState({ kind: 'failed', message: `${(body as ApiError).message} (${(body as ApiError).code})` })
      })
      .catch((error: unknown) => {
        if (current) setState({ kind: 'failed', message: String(error) })
      })
    return () => {
      current = false
    }
  }, [baseUrl, apiKey, fetchImpl])

  if (state.kind === 'loading') return <p>Loading pets…</p>
  if (state.kind === 'failed') return <p role="alert">{state.message}</p>
  return (
    <ul aria-label="Pets">
      {state.pets.map((pet) => (
        <li key={pet.id}>
          {pet.name} ({pet.status ?? 'no status'})
        </li>
      ))}
    </ul>
  )
}
