import type { Pet, NewPet, PetStatus } from './pet.js'
import { storedPet } from './stored-pet.js'
import type { PetChange } from './pet-change.js'
import type { PetBase } from './create-pet-base.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

/** Keeps pets across restarts, committed before acknowledged. */
export interface PetStorage {
  /** Lists pets created in earlier runs. */
  restored: readonly Pet[]
  replaced?: readonly Pet[]
  nextId: number
  commit(change: PetChange): Promise<void>
  /** Says why the storage cannot serve (`/readyz` 503). */
  notReady?: () => string | undefined
}

/** Holds a session's changes over its base. */
export interface PetOverlay {
  replaced: Map<number, Pet>
  added: Pet[]
  nextId: number
}

export interface PetOrigin {
  base: PetBase
  overlay: PetOverlay
}

/** Creates a process's `maxPets` count (D23). */
export function createPetPool(maxPets = Number.POSITIVE_INFINITY) {
  let stored = 0
  // Creates in flight, so a burst cannot overshoot.
  let creating = 0
  return {
    maxPets,
    claim(): void {
      if (stored + creating >= maxPets) throw storageFull(maxPets)
      creating++
    },
    settle(kept: boolean): void {
      creating--
      if (kept) stored++
    },
    /** Counts pets stored or freed outside creates. */
    add(count: number): void {
      stored += count
    },
    fits: (count: number): boolean => stored + creating + count <= maxPets,
    stored: (): number => stored,
  }
}

export type PetPool = ReturnType<typeof createPetPool>

export interface PetStoreOptions {
  /** Returns the origin, read on each reset. */
  origin: () => PetOrigin
  pool: PetPool
  filled: () => Promise<void> | undefined
  /** Journals this session's changes (`--state`). */
  storage?: PetStorage
}

/** Creates a session's pets, copy-on-write over a shared base (D34). */
export function createPetStore({ origin, pool, filled, storage }: PetStoreOptions) {
  let base = origin().base
  let overlay: PetOverlay = emptyOverlay()
  let owned = 0
  let usingBase = false
  // Stops a create in flight once the session is dropped.
  let released = false
  let replacedInOrder: Pet[] | undefined
  let ready: Promise<void> = Promise.resolve()
  // Reads wait only while a seeding or a reset runs; a failed one keeps them waiting on its refusal.
  let settled = true
  const changing = (next: Promise<void>): Promise<void> => {
    ready = next
    settled = false
    next.then(
      () => {
        if (ready === next) settled = true
      },
      () => undefined,
    )
    return next
  }
  const useBase = (next: PetBase) => {
    if (usingBase && next === base) return
    if (usingBase && base.release() === 0) pool.add(-base.count())
    base = next
    if (base.use() === 1) pool.add(base.count())
    usingBase = true
  }
  const adopt = (next: PetOverlay) => {
    pool.add(-owned)
    overlay = next
    replacedInOrder = undefined
    owned = overlaid(overlay, base)
    pool.add(owned)
  }
  const restoreOrigin = () => {
    const { base: originBase, overlay: originOverlay } = origin()
    useBase(originBase)
    adopt(copyOverlay(originOverlay))
  }

  function sortedReplaced(): Pet[] {
    replacedInOrder ??= [...overlay.replaced.values()].sort((a, b) => a.id - b.id)
    return replacedInOrder
  }

  function addedIndex(id: number): number {
    const { added } = overlay
    // Nearly always the end: ids ascend.
    if (added.length === 0 || added[added.length - 1]!.id < id) return added.length
    let low = 0
    let high = added.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (added[middle]!.id < id) low = middle + 1
      else high = middle
    }
    return low
  }

  function getAdded(id: number): Pet | undefined {
    const index = addedIndex(id)
    const pet = overlay.added[index]
    return pet?.id === id ? pet : undefined
  }

  function list({ status, limit }: ListQuery): Pet[] {
    const { replaced, added } = overlay
    let page: Pet[]
    if (replaced.size === 0) page = base.list(status, limit)
    else {
      // At most `replaced.size` of the base's first matches are replaced.
      const fromBase = base.list(status, limit + replaced.size).filter((pet) => !replaced.has(pet.id))
      const changed = sortedReplaced().filter((pet) => status === undefined || pet.status === status)
      page = mergeInOrder(fromBase, changed, limit)
    }
    for (let index = 0; page.length < limit && index < added.length; index++) {
      const pet = added[index]!
      if (status === undefined || pet.status === status) page.push(pet)
    }
    return page
  }

  /** Returns whether `record` is new in `into`'s added pets. */
  function placeAdded(into: PetOverlay, record: Pet): boolean {
    const index = into === overlay ? addedIndex(record.id) : into.added.findIndex((pet) => pet.id >= record.id)
    const at = index === -1 ? into.added.length : index
    const replacing = into.added[at]?.id === record.id
    into.added.splice(at, replacing ? 1 : 0, record)
    return !replacing
  }

  return {
    ready: () => ready,
    pending: () => (settled ? undefined : ready),

    /** Starts from the origin, stored pets on top. */
    start(): Promise<void> {
      const filling = filled()
      // Synchronous when filled, for in-process reads.
      if (filling === undefined && storage === undefined) {
        restoreOrigin()
        return ready
      }
      return changing(
        ready
          .then(() => filling)
          .then(() => {
            restoreOrigin()
            if (storage === undefined) return
            const restored = copyOverlay(overlay)
            for (const pet of storage.replaced ?? []) {
              if (pet.id <= base.lastId()) restored.replaced.set(pet.id, pet)
              else placeAdded(restored, pet)
            }
            for (const pet of storage.restored) placeAdded(restored, pet)
            restored.nextId = Math.max(restored.nextId, storage.nextId)
            adopt(restored)
          }),
      )
    },

    /** Returns to the origin's pets, durably. */
    reset(): Promise<void> {
      const done = ready.then(async () => {
        await storage?.commit({ kind: 'reset' })
        restoreOrigin()
      })
      // A failed reset journal leaves the store usable.
      changing(done.catch(() => undefined))
      return done
    },

    list,

    listJson(query: ListQuery): string {
      const { status, limit } = query
      if (overlay.replaced.size === 0) {
        const fromBase = base.pageText(status, limit)
        const { added } = overlay
        if (fromBase.count === limit || added.length === 0) return fromBase.text
        let text = fromBase.text.slice(0, -1)
        let count = fromBase.count
        for (let index = 0; count < limit && index < added.length; index++) {
          const pet = added[index]!
          if (status !== undefined && pet.status !== status) continue
          text += `${count === 0 ? '' : ','}${base.textOf(pet)}`
          count++
        }
        return `${text}]`
      }
      const page = list(query)
      let text = '['
      for (let index = 0; index < page.length; index++)
        text += index === 0 ? base.textOf(page[index]!) : `,${base.textOf(page[index]!)}`
      return `${text}]`
    },

    get(id: number): Pet | undefined {
      return overlay.replaced.get(id) ?? (id > base.lastId() ? getAdded(id) : base.get(id))
    },

    async create(pet: NewPet): Promise<Pet> {
      const into = overlay
      if (released) throw sessionDropped()
      if (into.nextId > MAX_PET_ID) throw idsExhausted()
      pool.claim()
      const record = storedPet({ ...pet, id: into.nextId++ })
      let kept = false
      try {
        // Durable before visible: a crash never loses an acknowledged pet.
        if (storage !== undefined) await storage.commit({ kind: 'created', pet: record })
        // A reset meanwhile drops the pet.
        if (into === overlay && !released) {
          placeAdded(into, record)
          owned++
          kept = true
        }
        return record
      } finally {
        pool.settle(kept)
      }
    },

    /** Stores `pet` under its own id; skipped ids are never assigned. */
    async put(pet: Pet): Promise<Pet> {
      const record = storedPet(pet)
      if (storage !== undefined) await storage.commit({ kind: 'put', pet: record })
      let added: boolean
      if (record.id <= base.lastId()) {
        added = !overlay.replaced.has(record.id) && base.get(record.id) === undefined
        overlay.replaced.set(record.id, record)
        replacedInOrder = undefined
      } else {
        added = placeAdded(overlay, record)
        overlay.nextId = Math.max(overlay.nextId, record.id + 1)
      }
      if (added) {
        owned++
        pool.add(1)
      }
      return record
    },

    all(): Pet[] {
      const { replaced, added } = overlay
      const fromBase = base.all()
      if (replaced.size === 0) return added.length === 0 ? fromBase : fromBase.concat(added)
      return mergeInOrder(
        fromBase.filter((pet) => !replaced.has(pet.id)),
        sortedReplaced(),
        Number.POSITIVE_INFINITY,
      ).concat(added)
    },

    count: (): number => base.count() + owned,

    nextId: (): number => overlay.nextId,

    /** Returns the pets as a fork's origin. */
    snapshot: (): PetOrigin => ({ base, overlay: copyOverlay(overlay) }),

    /** Counts what `release()` would free while a session over `kept` stays. */
    freed: (kept: PetBase): number => owned + (usingBase && base !== kept && base.users() === 1 ? base.count() : 0),

    release(): void {
      released = true
      pool.add(-owned)
      owned = 0
      if (usingBase && base.release() === 0) pool.add(-base.count())
      usingBase = false
    },
  }
}

export type PetStore = ReturnType<typeof createPetStore>

export function emptyOverlay(nextId = 1): PetOverlay {
  return { replaced: new Map(), added: [], nextId }
}

export function overlaid(overlay: PetOverlay, base: PetBase): number {
  let count = overlay.added.length
  for (const id of overlay.replaced.keys()) if (base.get(id) === undefined) count++
  return count
}

/** Counts the pets a session from `origin` would add. */
export function originAdds({ base, overlay }: PetOrigin): number {
  return (base.users() === 0 ? base.count() : 0) + overlaid(overlay, base)
}

export function baseOrigin(base: PetBase): PetOrigin {
  return { base, overlay: emptyOverlay(base.lastId() + 1) }
}

function copyOverlay(overlay: PetOverlay): PetOverlay {
  return { replaced: new Map(overlay.replaced), added: [...overlay.added], nextId: overlay.nextId }
}

/** Merges two disjoint id-ordered lists, up to `limit`. */
function mergeInOrder(a: Pet[], b: Pet[], limit: number): Pet[] {
  if (b.length === 0) return a.length > limit ? a.slice(0, limit) : a
  const out: Pet[] = []
  let i = 0
  let j = 0
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i]!.id < b[j]!.id)) out.push(a[i++]!)
    else out.push(b[j++]!)
  }
  return out
}

/** Caps pet ids where numbers stay exact (D37). */
export const MAX_PET_ID = Number.MAX_SAFE_INTEGER

/** Refuses a create past MAX_PET_ID (D37). */
export function idsExhausted(): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The session assigned every pet id up to ${MAX_PET_ID}; nothing was stored`,
  )
}

export function sessionDropped(): HttpError {
  return new HttpError(
    409,
    ErrorCode.conflict,
    'The session was dropped while this create was in flight; nothing was stored',
  )
}

/** Refuses a create beyond `maxPets` (D23). */
export function storageFull(maxPets: number): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The sandbox stores at most ${maxPets} pets and is full; nothing was stored`,
  )
}

/** Refuses a session that would pass `maxPets` (D23). */
export function sessionTooLarge(maxPets: number, adds: number): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The sandbox stores at most ${maxPets} pets and this session's ${adds} more would pass it; nothing was changed`,
  )
}
