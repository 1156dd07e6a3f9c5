import type { Pet } from './pet.js'

/** Journals a pet change before it is acknowledged (state-journal.ts). */
export type PetChange = { kind: 'created'; pet: Pet } | { kind: 'put'; pet: Pet } | { kind: 'reset' }

export type PetChangeKind = PetChange['kind']
