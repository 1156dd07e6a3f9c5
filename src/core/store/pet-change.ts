import type { Pet } from './pet.js'

/**
 * A change of the pets made durable before it is acknowledged (`PetStorage.commit`; a line of the
 * `--state` journal). A discriminated union: the journal writes, reads and replays it through one
 * table keyed by `kind` (src/node/persistence/state-journal.ts), so a kind added here fails the
 * typecheck there until it is handled.
 *
 * @example
 * const change: PetChange = { kind: 'put', pet: { id: 2, name: 'Biscuit', categoryId: 1 } }
 */
export type PetChange =
  // A pet created, with the id the store assigned it.
  | { kind: 'created'; pet: Pet }
  // A pet stored under its own id (`pets.put`): a replacement, or a pet beyond every assigned id.
  | { kind: 'put'; pet: Pet }
  // Back to the start-up pets; ids restart after them.
  | { kind: 'reset' }

/** The kinds of change, as the journal names them. */
export type PetChangeKind = PetChange['kind']
