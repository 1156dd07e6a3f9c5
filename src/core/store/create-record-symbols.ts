/**
 * Lightens what `@msw/data` hangs on each record, through the two hidden symbols its collections
 * give every record: a primary key and a relation map. Neither symbol is exported, so both are
 * read off the first record a collection creates; until then, or should a later `@msw/data` name
 * them differently, records simply keep what the collection gives them.
 *
 * - **Primary key.** A collection takes it from the initial values when they carry one under its
 *   `kPrimaryKey` symbol (`keyed`), and makes a `crypto.randomUUID()` otherwise: a rope of some
 *   twenty string pieces, about 450 bytes of heap per record, 45 MB of a 100000-pet store. The
 *   key is the id itself, a number: the collection only compares keys with `===` and keeps them
 *   in Sets, and a small integer costs no heap where `String(id)` cost 24 bytes per record.
 * - **Relation map.** `Collection.create` defines a `new Map()` on every record, relations or not:
 *   185 of the 257 bytes a record and its map take. The store's collection has no relations, so
 *   nothing ever writes to those maps; every record can point at one empty map instead. The map
 *   is defined non-writable, so a record gets a writable slot for it before the collection sees
 *   it (`prepared`, from the schema's output), and is pointed at the shared map as soon as the
 *   collection hands it back (`settle`). Each per-record map then dies young: with 100000 pets,
 *   the records and their maps survived V8's scavenges with 51 MB, which made V8 grow its young
 *   generation to 2 × 64 MB and keep it (library RSS right after seeding 220 MB); without the
 *   maps it stays at 2 × 32 MB (170 to 184 MB in the runs measured). Upstream's own fix is in
 *   docs/upstream-reports.md.
 *
 * @example
 * const symbols = createRecordSymbols()
 * const collection = new Collection({ schema: createPetSchema((pet) => symbols.prepared(storedPet(pet))) })
 * symbols.settle(await collection.create(first)) // learns both symbols
 * const second = await collection.create(symbols.keyed(pet)) // primary key pet.id
 * symbols.settle(second) // its relation map is now the shared empty one
 */
export function createRecordSymbols() {
  let primaryKey: symbol | undefined
  let relationMap: symbol | undefined
  const noRelations = new NoRelations()
  return {
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
        Object.defineProperty(record, relationMap, { value: noRelations, writable: true, enumerable: false, configurable: true })
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
