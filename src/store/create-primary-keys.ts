/**
 * Gives `@msw/data` records the pet's id as their primary key instead of a random UUID.
 *
 * A collection takes a record's primary key from its initial values when they carry one under
 * its `kPrimaryKey` symbol, and makes a `crypto.randomUUID()` otherwise. Such a UUID is a rope of
 * some twenty string pieces, about 450 bytes of heap per record: 45 MB of a 100000-pet store. The
 * key is the id itself, a number: the collection only compares keys with `===` and keeps them in
 * Sets, and a small integer costs no heap where `String(id)` cost 24 bytes per record. The
 * symbol is not exported, so it is read off the first record the collection creates; until then,
 * or should a later `@msw/data` name it differently, records simply keep their UUIDs.
 *
 * @example
 * const keys = createPrimaryKeys()
 * keys.learn(await collection.create(first))
 * await collection.create(keys.keyed(second)) // primary key 2 when second.id is 2
 */
export function createPrimaryKeys() {
  let symbol: symbol | undefined
  return {
    keyed<T extends { id: number }>(values: T): T {
      return symbol === undefined ? values : { ...values, [symbol]: values.id }
    },
    learn(record: object): void {
      symbol ??= Object.getOwnPropertySymbols(record).find((candidate) => candidate.description === 'kPrimaryKey')
    },
  }
}
