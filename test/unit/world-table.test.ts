import { describe, expect, it } from 'vitest'
import { createSandbox, type Session } from '../../src/index.js'
import { adminOpenapiDocument } from '../../src/core/contract/admin-openapi-document.js'
import type { WorldHolds } from '../../src/core/sessions/origin.js'
import { resolveDemoKeys } from '../../src/core/auth/resolve-keys.js'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'
import { forcibleStatuses } from '../../src/core/scenarios/forced-status.js'
import { resolveScenarios } from '../../src/core/scenarios/scenario-config.js'
import {
  capsuleOrigin,
  originFromShared,
  sharedOriginOf,
  startUpOrigin,
  WORLD_TABLE,
  type WorldCarrierParts,
  type WorldTable,
} from '../../src/core/sessions/world-table.js'
import { createPetBase } from '../../src/core/store/create-pet-base.js'
import { createBoundKeys } from '../../src/core/auth/create-bound-keys.js'
import type { SharedOriginInfo } from '../../src/core/state/shared-state.js'

// Checked by `npm run typecheck`: the table names every entry of a world, and an entry it does not
// carry fails the typecheck (as adding `weather` to WorldHolds would, at WORLD_TABLE, until every
// carrier carries it).
type WithWeather = WorldHolds & { weather: { weather: { p50: number } } }
const everyEntryCarried: WorldTable = WORLD_TABLE
// @ts-expect-error: Property 'weather' is missing in the world's table.
const uncarriedEntryFails: { readonly [K in keyof WithWeather]: unknown } = WORLD_TABLE
void everyEntryCarried
void uncarriedEntryFails

const KEY = 'sandbox-free-key'
type Probe = {
  /** Changes the entry in a session, away from its start-up value. */
  change(session: Session<'now'>): Promise<void>
  /** What the entry is in a session, as its controls read it. */
  read(session: Session<'now'>): Promise<unknown>
  /** What a fork of a changed session has: the same, or a fresh world's. */
  fork: 'same' | 'fresh'
  /** What a session restored from a changed session's capsule has. */
  capsule: 'same' | 'fresh'
  /** Whether a reset puts it back to the origin's (false: a reset keeps it, docs/decisions.md#d34). */
  reset: boolean
}

// One probe per entry, typed over the table's entries: an entry without one fails the typecheck.
const PROBES: { [K in keyof WorldHolds]: Probe } = {
  origin: {
    change: async () => undefined,
    read: async (session) => (await session.state()).session,
    fork: 'fresh',
    capsule: 'fresh',
    reset: true,
  },
  clock: {
    change: async (session) => session.clock.set('2031-05-06T07:08:09.000Z'),
    read: async (session) => Math.floor(session.clock.now() / 60_000),
    fork: 'same',
    capsule: 'same',
    reset: false,
  },
  pets: {
    change: async (session) => void (await session.pets.create({ name: 'Changed', categoryId: 2 })),
    read: async (session) => ({
      pets: (await session.pets.all()).map((pet) => pet.name),
      state: (await session.state()).pets,
    }),
    fork: 'same',
    capsule: 'same',
    reset: true,
  },
  quotas: {
    change: async (session) => void (await session.quota.set(KEY, { minuteRemaining: 3, dayRemaining: 40 })),
    read: async (session) => {
      const { minute, day } = await session.quota.get(KEY)
      return { minute: minute.used, day: day.used }
    },
    fork: 'same',
    capsule: 'same',
    reset: true,
  },
  // A key names one session: a fork has none, a capsule carries them, a reset keeps them (D46).
  keys: {
    change: async (session) => void (await session.keys.add({ plan: 'pro' })),
    read: async (session) => (await session.keys.list()).map((key) => [key.key, key.plan, key.session]),
    fork: 'fresh',
    capsule: 'same',
    reset: false,
  },
  log: {
    change: async (session) =>
      void (await session.fetch('http://api.test/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })),
    read: async (session) => (await session.requests()).length,
    fork: 'fresh',
    capsule: 'fresh',
    reset: true,
  },
  faults: {
    change: async (session) => void (await session.faults.set({ errorRate: 0.25, latency: { min: 1, max: 2 } })),
    read: async (session) => session.faults.get(),
    fork: 'same',
    capsule: 'same',
    reset: false,
  },
  scenarios: {
    change: async (session) => session.scenarios.set(KEY, 'sunset'),
    read: async (session) => session.scenarios.get(KEY),
    fork: 'same',
    capsule: 'same',
    reset: true,
  },
}
const ENTRIES = Object.keys(WORLD_TABLE) as Array<keyof WorldHolds>
const KEYS = resolveDemoKeys()
const OPERATIONS = ['listPets', 'getPet', 'createPet']
const PARTS: WorldCarrierParts = {
  keys: () => KEYS,
  bound: createBoundKeys(),
  adminToken: undefined,
  knownScenarios: resolveScenarios(undefined, forcibleStatuses(openapiDocument)),
  custom: undefined,
  operationIds: OPERATIONS,
  requests: {
    count: () => 0,
    clear: () => undefined,
    har: () => ({ log: { version: '1.2', creator: { name: 'test', version: '0' }, entries: [] } }) as never,
  },
}

const sleep = async () => undefined
const made = () => createSandbox({ pets: 3, seed: 5, sleep, baseUrl: 'http://api.test/v1' })
// Read through a session named like the changed one, so the origin's name never differs.
const fresh = async (entry: keyof WorldHolds) => {
  const sandbox = made()
  await sandbox.ready()
  return PROBES[entry].read(sandbox.session('changed'))
}

describe('each carrier carries every entry of the table', () => {
  it.each(ENTRIES)('a fork carries %s as the table says', async (entry) => {
    const sandbox = made()
    const source = sandbox.session('changed')
    await PROBES[entry].change(source)
    await sandbox.sessions.put('forked', { from: 'changed' })
    const forked = await PROBES[entry].read(sandbox.session('forked'))
    const expected = PROBES[entry].fork === 'same' ? await PROBES[entry].read(source) : await fresh(entry)
    if (entry === 'origin') expect((await sandbox.sessions.get('forked'))?.origin).toBe('fork')
    else expect(forked).toEqual(expected)
  })

  it.each(ENTRIES)('a capsule carries %s as the table says', async (entry) => {
    const sandbox = made()
    const source = sandbox.session('changed')
    await PROBES[entry].change(source)
    const capsule = await source.capsule()
    // Every property of the admin document's Capsule is written by an entry or the capsule's frame.
    const { properties } = (
      adminOpenapiDocument.components as { schemas: Record<string, { properties: Record<string, unknown> }> }
    ).schemas.Capsule!
    const owned = new Set(['kind', 'version', 'made', ...ENTRIES.flatMap((name) => WORLD_TABLE[name].schema)])
    expect(Object.keys(properties).filter((property) => !owned.has(property))).toEqual([])
    const restored = made()
    await restored.sessions.put('changed', { capsule })
    const read = await PROBES[entry].read(restored.session('changed'))
    if (entry === 'origin') expect((await restored.sessions.get('changed'))?.origin).toBe('capsule')
    else expect(read).toEqual(PROBES[entry].capsule === 'same' ? await PROBES[entry].read(source) : await fresh(entry))
  })

  it.each(ENTRIES)('a reset puts %s back as the table says', async (entry) => {
    const sandbox = made()
    const session = sandbox.session('changed')
    await PROBES[entry].change(session)
    const changed = await PROBES[entry].read(session)
    await session.reset()
    expect(await PROBES[entry].read(session)).toEqual(PROBES[entry].reset ? await fresh(entry) : changed)
  })

  it.each(ENTRIES)('the shared copy of an origin carries %s', async (entry) => {
    const source = made().session('changed')
    await PROBES[entry].change(source)
    // A capsule's origin holds every entry: it goes to a shared state whole, and comes back as one.
    const origin = await capsuleOrigin(await source.capsule(), PARTS)
    const put = sharedOriginOf(origin)
    if (put.kind !== 'capsule') throw new Error('a capsule origin goes as a capsule')
    // What a shared state keeps: the settings as one value, the pets and quotas in keys of its own.
    const kept: SharedOriginInfo = JSON.parse(JSON.stringify({ kind: put.kind, settings: put.settings }))
    const startUp = startUpOrigin({
      base: createPetBase(),
      seed: 0,
      startAt: undefined,
      faults: {},
      scenarios: {},
      from: undefined,
      keys: KEYS,
      operationIds: OPERATIONS,
    })
    const back = originFromShared(kept, startUp)
    const carried: Record<keyof WorldHolds, () => [unknown, unknown]> = {
      origin: () => [back.kind, origin.kind],
      clock: () => [back.clock, origin.clock],
      pets: () => [
        [put.pets, put.nextId],
        [origin.pets?.().base.all(), origin.pets?.().overlay.nextId],
      ],
      quotas: () => [[...put.quotas], [...origin.quotas]],
      // The registry binds an origin's keys when it puts the world; the state is told none.
      keys: () => [
        [put.kind, back.boundKeys],
        ['capsule', []],
      ],
      log: () => [await0(put), 'no log in an origin'],
      faults: () => [back.faults, origin.faults],
      scenarios: () => [
        [back.scenarios, back.seed],
        [origin.scenarios, origin.seed],
      ],
    }
    const [got, expected] = carried[entry]()
    expect(got).toEqual(expected)
  })

  it.each(ENTRIES)('the summary shows %s where the admin document lists it', async (entry) => {
    const sandbox = made()
    const session = sandbox.session('changed')
    const before = await sandbox.sessions.get('changed')
    await PROBES[entry].change(session)
    const after = await sandbox.sessions.get('changed')
    const shown: Record<keyof WorldHolds, keyof NonNullable<typeof after> | undefined> = {
      origin: 'origin',
      clock: 'now',
      pets: 'pets',
      quotas: undefined,
      keys: 'keys',
      log: 'requests',
      faults: undefined,
      scenarios: undefined,
    }
    const field = shown[entry]
    if (field === undefined || entry === 'origin') expect(after?.origin).toBe(before?.origin)
    else expect(after?.[field]).not.toEqual(before?.[field])
  })
})

const await0 = (put: object) => ('log' in put ? 'a log in an origin' : 'no log in an origin')
