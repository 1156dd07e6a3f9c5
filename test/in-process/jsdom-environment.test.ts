// @vitest-environment jsdom
import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

// vitest's jsdom environment installs its own Request class, whose static Symbol.hasInstance
// answers for subclasses too; the sandbox must still tell its own requests from the page's.
const { api } = useInProcessSandbox()

it('answers with a JSON body under jsdom', async () => {
  const response = await api('/pets?limit=2')
  expect(response.status).toBe(200)
  const pets = (await response.json()) as Array<{ id: number }>
  expect(pets.map((pet) => pet.id)).toEqual([1, 2])
})

it('answers refusals with an Error body under jsdom', async () => {
  const response = await api('/pets?limit=0')
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ code: 'invalid_request', status: 400 })
})
