import { expect, it } from 'vitest'
import { createPetBase } from '../../src/core/store/create-pet-base.js'
import { baseOrigin, createPetPool, createPetStore, type PetStorage } from '../../src/core/store/create-pet-store.js'

/** Resolves or rejects when the test says. */
function deferred() {
  let resolve!: () => void
  let reject!: (error: Error) => void
  const promise = new Promise<void>((done, fail) => {
    resolve = done
    reject = fail
  })
  return { promise, resolve, reject }
}

/** A store over a filled base of two pets, its storage's commits held until the test lets them go. */
function storeWith(filled: () => Promise<void> | undefined, commit: () => Promise<void> = () => Promise.resolve()) {
  const base = createPetBase()
  base.fill([
    { name: 'Ace', categoryId: 2 },
    { name: 'Bo', categoryId: 1 },
  ])
  const storage: PetStorage = { restored: [], nextId: 3, commit }
  return createPetStore({ origin: () => baseOrigin(base), pool: createPetPool(), filled, storage })
}

const turns = async (count = 5) => {
  for (let i = 0; i < count; i++) await Promise.resolve()
}

it('gives nothing to wait for once started, and the promise of a reset while it runs', async () => {
  const held = deferred()
  let holding = false
  const store = storeWith(
    () => undefined,
    () => (holding ? held.promise : Promise.resolve()),
  )
  await store.start()
  await turns()
  expect(store.pending()).toBeUndefined()

  holding = true
  const reset = store.reset()
  const waiting = store.pending()
  expect(waiting).toBeInstanceOf(Promise)
  expect(waiting).toBe(store.ready())

  held.resolve()
  await reset
  await turns()
  expect(store.pending()).toBeUndefined()
  expect(store.all().map((pet) => pet.name)).toEqual(['Ace', 'Bo'])
})

it('keeps a read waiting while a second reset runs after the first has ended', async () => {
  const commits = [deferred(), deferred()]
  let next = 0
  const store = storeWith(
    () => undefined,
    () => commits[next++]!.promise,
  )
  await store.start()
  const first = store.reset()
  const second = store.reset()
  commits[0]!.resolve()
  await first
  await turns()
  expect(store.pending()).toBeInstanceOf(Promise)

  commits[1]!.resolve()
  await second
  await turns()
  expect(store.pending()).toBeUndefined()
})

it('keeps reads waiting on a seeding that failed, which they hear as its error', async () => {
  const failure = new Error('the seeded pets cannot be there')
  const store = storeWith(() => Promise.reject(failure))
  await expect(store.start()).rejects.toBe(failure)
  await turns()

  const waiting = store.pending()
  expect(waiting).toBeInstanceOf(Promise)
  await expect(waiting).rejects.toBe(failure)
})
