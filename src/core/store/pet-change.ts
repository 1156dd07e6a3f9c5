import type { Pet } from './pet.js'

/** A change of the pets made durable before it is acknowledged: a line of the `--state` journal (state-journal.ts). */
export type PetChange = { kind: 'created'; pet: Pet } | { kind: 'put'; pet: Pet } | { kind: 'reset' }

export type PetChangeKind = PetChange['kind']
