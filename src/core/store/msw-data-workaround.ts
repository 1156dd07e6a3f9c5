// A WORKAROUND for @msw/data 1.1.7, fenced in this module: remove it when @msw/data ships the
// fix described in docs/upstream-reports.md ("a relation Map for every record"). The store reads
// as an ordinary @msw/data store without it; it relies on two internals (the descriptions of the
// record symbols, and the descriptor `create` asks for), and test/unit/msw-data-workaround.test.ts
// fails loudly if either changes. Why it matters: BENCHMARKS.md, "Why the figures are what they are".

// Seeding stores the first pet alone, so the symbols are learnt before any other record is made,
// then batches small enough that little of each is in flight when V8 collects the young generation.
const SEED_BATCH = 100

/**
 * Lightens what `@msw/data` hangs on each record, through the two hidden symbols its collections
 * give every record. Neither symbol is exported, so both are read off the first record a
 * collection creates; until then, or should a later `@msw/data` name them differently, records
 * keep what the collection gives them.
 *
 * - **Primary key.** A collection takes it from the initial values when they carry one under its
 *   `kPrimaryKey` symbol (`keyed`), and makes a `crypto.randomUUID()` string otherwise; the pet's
 *   id, a small integer, costs no heap.
 * - **Relation map.** `Collection.create` defines a `new Map()` on every record, relations or not.
 *   The store's collection has none, so every record can point at one empty map: a record gets a
 *   writable slot before the collection sees it (`prepared`, from the schema's output), and is
 *   pointed at the shared map when the collection hands it back (`settle`).
 *
 * @example
 * const workaround = createMswDataWorkaround()
 * const collection = new Collection({ schema: createPetSchema((pet) => workaround.prepared(storedPet(pet))) })
 * workaround.settle(await collection.create(first)) // learns both symbols
 * const second = await collection.create(workaround.keyed(pet)) // primary key pet.id
 * workaround.settle(second) // its relation map is now the shared empty one
 */
export function createMswDataWorkaround() {
  let primaryKey: symbol | undefined
  let relationMap: symbol | undefined
  const noRelations = new NoRelations()
  return {
    /** How many pets seeding stores in its next batch, `stored` being how many it stored so far. */
    seedBatchSize: (stored: number): number => (stored === 0 ? 1 : SEED_BATCH),

    /** `values` with the pet's id as the primary key the collection gives the record. */
    keyed<T extends { id: number }>(values: T): T {
      return primaryKey === undefined ? values : { ...values, [primaryKey]: values.id }
    },

    /**
     * Gives a record about to be stored a writable relation-map slot. Configurable as well as
     * writable: the collection's own definition then succeeds whatever attributes it asks for,
     * and if it ever made the slot read-only, `settle` just leaves that record its own map.
     */
    prepared<T extends object>(record: T): T {
      if (relationMap !== undefined) {
        Object.defineProperty(record, relationMap, {
          value: noRelations,
          writable: true,
          enumerable: false,
          configurable: true,
        })
      }
      return record
    },

    /** Learns the symbols from the collection's first record; points later ones at the shared map. */
    settle(record: object): void {
      if (primaryKey === undefined || relationMap === undefined) {
        const symbols = Object.getOwnPropertySymbols(record)
        primaryKey ??= symbols.find((candidate) => candidate.description === 'kPrimaryKey')
        relationMap ??= symbols.find((candidate) => candidate.description === 'kRelationMap')
        return
      }
      // Reflect.set rather than an assignment: a record that never got a writable slot (one the
      // collection made itself, on update) keeps its map instead of throwing.
      Reflect.set(record, relationMap, noRelations)
    },
  }
}

/**
 * The relation map of records without relations: empty, and refusing entries, so that should
 * anything ever try to relate one record, it fails loudly instead of relating every record.
 */
class NoRelations extends Map<string, never> {
  override set(key: string): never {
    throw new TypeError(`the pet store's records have no relations (tried to relate "${key}")`)
  }
}
