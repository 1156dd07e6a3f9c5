import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api } = useInProcessSandbox({ corsOrigins: ['http://localhost:5173'] })

it('allows only the configured origins', async () => {
  const allowed = await api('/pets', { headers: { origin: 'http://localhost:5173' } })
  expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  expect(allowed.headers.get('vary')).toBe('Origin')
  const other = await api('/pets', { headers: { origin: 'http://evil.example' } })
  expect(other.headers.get('access-control-allow-origin')).toBeNull()
  expect(other.headers.get('access-control-expose-headers')).toBeNull()
})

it('answers the preflight of another origin without allowing it', async () => {
  const preflight = await api('/pets', {
    method: 'OPTIONS',
    key: null,
    headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
  })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
})
