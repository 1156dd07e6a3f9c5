import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({
  deprecation: { deprecatedAt: '2027-01-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z' },
})

it('takes other deprecation and sunset dates to rehearse them', async () => {
  const response = await api('/pets/1')
  expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2027, 0, 1) / 1000}`)
  expect(response.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT')
  sandbox.clock.set('2027-06-01T00:00:00Z')
  expect((await api('/pets/1')).status).toBe(410)
})
