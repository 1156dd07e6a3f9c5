import type { Pet, NewPet, PetStatus } from './pet.js'
import { storedPet } from './stored-pet.js'
import type { PetChange } from './pet-change.js'
import type { PetBase } from './create-pet-base.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

/** The page `listPets` reads: the first `limit` pets in id order, of one status or all (the PetRepository's). */
export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

/**
 * Where created pets outlive the process. The store awaits `commit` before it stores a pet or
 * resets, so nothing is acknowledged (201) or shown before it is durable.
 */
export interface PetStorage {
  /** Pets created in earlier runs, ascending by id, stored after the seeded ones on start. */
  restored: readonly Pet[]
  /** Seeded pets replaced by `pets.put` in earlier runs: they take the seeded ones' places on start. */
  replaced?: readonly Pet[]
  /** The id the next created pet gets: ids keep ascending across restarts. */
  nextId: number
  commit(change: PetChange): Promise<void>
  /** Why the storage cannot serve right now, or undefined: `GET /readyz` answers 503 meanwhile. */
  notReady?: () => string | undefined
}

/**
 * What one world changed over its base: pets of the base it replaced (`pets.put`), pets it added
 * beyond the base's last id (creates, and puts beyond every assigned id), ascending, and the next
 * id. Empty for a world that only read.
 */
export interface PetOverlay {
  replaced: Map<number, Pet>
  added: Pet[]
  nextId: number
}

/** The pets a world starts from and returns to on `reset()`: a base, and an overlay over it. */
export interface PetOrigin {
  base: PetBase
  overlay: PetOverlay
}

/**
 * `maxPets` (D23), for every world of a process at once: the pets of each base in use, counted
 * once, plus the pets every world added. A world reset or dropped gives its pets back.
 */
export function createPetPool(maxPets = Number.POSITIVE_INFINITY) {
  let stored = 0
  // Creates counted while their journal line is written, so a burst cannot overshoot the bound.
  let creating = 0
  return {
    maxPets,
    /** Refuses a create beyond the bound (507 storage_full) before anything is stored. */
    claim(): void {
      if (stored + creating >= maxPets) throw storageFull(maxPets)
      creating++
    },
    /** Ends a claim: `kept` when the pet was stored. */
    settle(kept: boolean): void {
      creating--
      if (kept) stored++
    },
    /** Counts pets stored (positive) or given back (negative) other than by a create. */
    add(count: number): void {
      stored += count
    },
    /** Whether `count` more pets fit. */
    fits: (count: number): boolean => stored + creating + count <= maxPets,
    stored: (): number => stored,
  }
}

export type PetPool = ReturnType<typeof createPetPool>

export interface PetStoreOptions {
  /** What the store starts from and `reset()` restores; read on each reset (a session given a new origin). */
  origin: () => PetOrigin
  pool: PetPool
  /** Resolves once the origin's base is filled (seeding); undefined when it is. */
  filled: () => Promise<void> | undefined
  /** Durable storage of this world's changes (`--state`, the default session only). */
  storage?: PetStorage
}

/**
 * One world's pets, copy-on-write over a base shared by every world that starts from it
 * (docs/decisions.md#d34): reads merge the base with the world's overlay, writes go to the
 * overlay, and `reset()` puts the origin's overlay back in place of the world's, without touching
 * the base. Ids are assigned here, synchronously, from a counter that only grows: ascending,
 * never reused, even across concurrent creates.
 */
export function createPetStore({ origin, pool, filled, storage }: PetStoreOptions) {
  let base = origin().base
  let overlay: PetOverlay = emptyOverlay()
  // Pets of this world counted in the pool: its additions, and its base's while this world is its only user.
  let owned = 0
  let usingBase = false
  // Set once the world is let go of (its session dropped): a create still in flight stores nothing.
  let released = false
  // The replaced pets in id order, made when a listing needs them after a put.
  let replacedInOrder: Pet[] | undefined
  let ready: Promise<void> = Promise.resolve()
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

  /** Index of `id` in the ascending `added`, or of where it would go. */
  function addedIndex(id: number): number {
    const { added } = overlay
    // Nearly always the end: creates come in id order.
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

  /** The first `limit` pets in id order, of one status or all: the base's, less those this world replaced, with its own. */
  function list({ status, limit }: ListQuery): Pet[] {
    const { replaced, added } = overlay
    let page: Pet[]
    if (replaced.size === 0) page = base.list(status, limit)
    else {
      // At most `replaced.size` of the base's first matches are replaced: reading that many
      // more still fills the page.
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

  /** Stores `record` in `into`'s added pets, in id order; whether it is new there. */
  function placeAdded(into: PetOverlay, record: Pet): boolean {
    const index = into === overlay ? addedIndex(record.id) : into.added.findIndex((pet) => pet.id >= record.id)
    const at = index === -1 ? into.added.length : index
    const replacing = into.added[at]?.id === record.id
    into.added.splice(at, replacing ? 1 : 0, record)
    return !replacing
  }

  return {
    /** Resolves once the base is filled and, the first time, the storage's pets are in place. */
    ready: () => ready,

    /** Starts from the origin once its base is filled; with storage, the pets of earlier runs on top (the default session). */
    start(): Promise<void> {
      const filling = filled()
      // A session made once the base is filled has its pets at once, for in-process reads.
      if (filling === undefined && storage === undefined) {
        restoreOrigin()
        return ready
      }
      ready = ready
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
        })
      return ready
    },

    /** Back to the origin's pets (durably forgetting this world's changes); ids restart after them. */
    reset(): Promise<void> {
      const done = ready.then(async () => {
        await storage?.commit({ kind: 'reset' })
        restoreOrigin()
      })
      // A reset that could not be made durable is reported to its caller and changes nothing;
      // the store stays usable.
      ready = done.catch(() => undefined)
      return done
    },

    list,

    /** `list`'s page as its JSON text (what `JSON.stringify` makes of it). */
    listJson(query: ListQuery): string {
      const { status, limit } = query
      if (overlay.replaced.size === 0) {
        // The base's page, serialized once (create-pet-base.ts), and this world's own pets after it.
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
        // Durable first, visible second: a pet nobody was told about may be lost in a crash, but
        // never one that was acknowledged or listed.
        if (storage !== undefined) await storage.commit({ kind: 'created', pet: record })
        // A reset while the journal was written dropped the overlay this pet was made for.
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

    /**
     * Stores `pet` under its own id: replaces the pet with that id, or adds it when the id is
     * beyond every assigned one (ids skipped on the way are never assigned afterwards, so ids are
     * still never reused).
     */
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

    /** Every pet, in id order. */
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

    /** The id the next created pet gets. */
    nextId: (): number => overlay.nextId,

    /** This world's pets as an origin another world can start from (a fork): O(its changes), never O(base). */
    snapshot: (): PetOrigin => ({ base, overlay: copyOverlay(overlay) }),

    /** How many pets `release()` would give back while a world over `kept` stays: what a world replacing this one frees. */
    freed: (kept: PetBase): number => owned + (usingBase && base !== kept && base.users() === 1 ? base.count() : 0),

    /** Lets go of this world's pets: they no longer count against maxPets (a dropped session). */
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

/** An overlay that changes nothing: a world starting from `base` as it is. */
export function emptyOverlay(nextId = 1): PetOverlay {
  return { replaced: new Map(), added: [], nextId }
}

/** How many pets of `overlay` are not in `base`: those it added, and those it put beyond the base's. */
export function overlaid(overlay: PetOverlay, base: PetBase): number {
  let count = overlay.added.length
  for (const id of overlay.replaced.keys()) if (base.get(id) === undefined) count++
  return count
}

/** How many pets a new world starting from `origin` adds to the pool: its overlay's, and its base's when no world uses it yet. */
export function originAdds({ base, overlay }: PetOrigin): number {
  return (base.users() === 0 ? base.count() : 0) + overlaid(overlay, base)
}

/** The origin of a world that starts from `base` as it is. */
export function baseOrigin(base: PetBase): PetOrigin {
  return { base, overlay: emptyOverlay(base.lastId() + 1) }
}

function copyOverlay(overlay: PetOverlay): PetOverlay {
  return { replaced: new Map(overlay.replaced), added: [...overlay.added], nextId: overlay.nextId }
}

/** The first `limit` pets of two lists each in id order, with no id in both, in id order. */
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

/** The highest id a pet gets (D37): past it a number rounds onto another. */
export const MAX_PET_ID = Number.MAX_SAFE_INTEGER

/** The refusal of a create once the next id would pass MAX_PET_ID (docs/decisions.md#d37), worded alike by every store. */
export function idsExhausted(): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The session assigned every pet id up to ${MAX_PET_ID}; nothing was stored`,
  )
}

/** The refusal of a create whose session was dropped while it was in flight (docs/decisions.md#d34), worded alike by every store. */
export function sessionDropped(): HttpError {
  return new HttpError(
    409,
    ErrorCode.conflict,
    'The session was dropped while this create was in flight; nothing was stored',
  )
}

/** The refusal of a create beyond `maxPets` (docs/decisions.md#d23), worded alike by every store. */
export function storageFull(maxPets: number): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The sandbox stores at most ${maxPets} pets and is full; nothing was stored`,
  )
}

/** The refusal of a session whose pets (a capsule's, a recording's, a fork's) would pass `maxPets` (D23), worded alike by every state. */
export function sessionTooLarge(maxPets: number, adds: number): HttpError {
  return new HttpError(
    507,
    ErrorCode.storageFull,
    `The sandbox stores at most ${maxPets} pets and this session's ${adds} more would pass it; nothing was changed`,
  )
}
