import { expect, it } from 'vitest'
import { createRouter } from '../../src/core/contract/create-router.js'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'

const router = createRouter(openapiDocument)

it('routes the three operations of the document', () => {
  expect(router.match('GET', '/pets')).toMatchObject({ kind: 'operation', operation: { operationId: 'listPets' } })
  expect(router.match('POST', '/pets')).toMatchObject({ kind: 'operation', operation: { operationId: 'createPet' } })
  expect(router.match('GET', '/pets/12')).toMatchObject({
    kind: 'operation',
    operation: { operationId: 'getPet', deprecated: true },
    params: { petId: '12' },
  })
})

it('reports the allowed methods of a known path', () => {
  expect(router.match('DELETE', '/pets')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST'] })
  expect(router.match('POST', '/pets/1')).toEqual({ kind: 'method-not-allowed', allow: ['GET'] })
})

it.each(['/', '/pet', '/pets/', '/pets/1/owner', '/pets//', '/PETS'])('finds nothing at %s', (path) => {
  expect(router.match('GET', path)).toEqual({ kind: 'not-found' })
})
