// A WORKAROUND for @msw/data 1.1.7: remove it once the fix in docs/upstream-reports.md ("a relation Map for every
// record") ships. Why: BENCHMARKS.md, "Why the figures are what they are"; test/unit/msw-data-workaround.test.ts
// fails if the internals it reads change.

// Stores the first pet alone, so the symbols are learnt before any other record is made.
const SEED_BATCH = 100

/** Creates the workaround: the pet's id as primary key, one shared empty relation map, symbols read off a record. */
export function createMswDataWorkaround() {
  let primaryKey: symbol | undefined
  let relationMap: symbol | undefined
  const noRelations = new NoRelations()
  return {
    /** Returns the size of seeding's next batch after `stored` pets. */
    seedBatchSize: (stored: number): number => (stored === 0 ? 1 : SEED_BATCH),

    /** Returns `values` carrying the pet's id as the record's primary key. */
    keyed<T extends { id: number }>(values: T): T {
      return primaryKey === undefined ? values : { ...values, [primaryKey]: values.id }
    },

    /** Gives a record a writable, configurable relation-map slot, so the collection's own definition succeeds. */
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
      // Reflect.set: a record without a writable slot (made on update) keeps its map instead of throwing.
      Reflect.set(record, relationMap, noRelations)
    },
  }
}

/** Refuses every entry, so relating one record fails loudly instead of relating them all. */
class NoRelations extends Map<string, never> {
  override set(key: string): never {
    throw new TypeError(`the pet store's records have no relations (tried to relate "${key}")`)
  }
}
