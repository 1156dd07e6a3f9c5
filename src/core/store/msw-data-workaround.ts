// WORKAROUND for @msw/data 1.1.7 until docs/upstream-reports.md's fix ships (BENCHMARKS.md, "Why the figures are
// what they are"); test/unit/msw-data-workaround.test.ts guards the internals.

// The first pet alone, to learn the symbols.
const SEED_BATCH = 100

/** Keys records by id and shares a relation map. */
export function createMswDataWorkaround() {
  let primaryKey: symbol | undefined
  let relationMap: symbol | undefined
  const noRelations = new NoRelations()
  return {
    seedBatchSize: (stored: number): number => (stored === 0 ? 1 : SEED_BATCH),

    keyed<T extends { id: number }>(values: T): T {
      return primaryKey === undefined ? values : { ...values, [primaryKey]: values.id }
    },

    /** Gives a record the relation-map slot the collection defines. */
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

    /** Learns the symbols from the first record. */
    settle(record: object): void {
      if (primaryKey === undefined || relationMap === undefined) {
        const symbols = Object.getOwnPropertySymbols(record)
        primaryKey ??= symbols.find((candidate) => candidate.description === 'kPrimaryKey')
        relationMap ??= symbols.find((candidate) => candidate.description === 'kRelationMap')
        return
      }
      // Reflect.set: a record made on update keeps its own map.
      Reflect.set(record, relationMap, noRelations)
    },
  }
}

/** Refuses every entry: relating a record fails loudly. */
class NoRelations extends Map<string, never> {
  override set(key: string): never {
    throw new TypeError(`the pet store's records have no relations (tried to relate "${key}")`)
  }
}
