import { PET_STATUSES } from '../../core/store/pet.js'
import type { Exchange } from './exchange.js'
import type { Scenario, ScenarioContext } from './scenario.js'

/** The default and bounds of `limit` and the status filter, judged against one full listing. */
export const checkListing: Scenario = {
  promises: ['limit-default-and-bounds', 'status-filter', 'ascending-ids'],
  requests: 3 + PET_STATUSES.length,
  async run(context) {
    const { fail } = context
    const all = await listed(context, '/pets?limit=100')
    if (all === undefined) return
    context.knownPetId = all.pets[0]?.id
    const byDefault = await listed(context, '/pets')
    // Fewer than expected is the failure; more is the per-answer bound's to judge, and pets others
    // create meanwhile on a shared backend must not fail this run.
    if (byDefault !== undefined && byDefault.pets.length < Math.min(20, all.pets.length)) {
      fail('limit-default-and-bounds', `${Math.min(20, all.pets.length)} pets without limit (default 20), got ${byDefault.pets.length}`, byDefault.exchange)
    }
    const one = await listed(context, '/pets?limit=1')
    if (one !== undefined && one.pets.length < Math.min(1, all.pets.length)) {
      fail('limit-default-and-bounds', `${Math.min(1, all.pets.length)} pet for limit=1, got ${one.pets.length}`, one.exchange)
    }
    for (const status of PET_STATUSES) {
      const filtered = await listed(context, `/pets?status=${status}&limit=100`)
      // With fewer than 100 pets the full listing holds them all, so each of that status must come back.
      if (filtered === undefined || all.pets.length >= 100) continue
      const returned = new Set(filtered.pets.map((pet) => pet.id))
      const missing = all.pets.filter((pet) => pet.status === status && !returned.has(pet.id)).map((pet) => pet.id)
      if (missing.length > 0) {
        fail('status-filter', `every pet with status ${status} of the full listing, missing ${missing.slice(0, 5).join(', ')}`, filtered.exchange)
      }
    }
  },
}

type Listing = { pets: Array<{ id: number; status?: string }>; exchange: Exchange }

async function listed(context: ScenarioContext, path: string): Promise<Listing | undefined> {
  const exchange = await context.client.send({ path })
  if (exchange.status === 200 && Array.isArray(exchange.body)) return { pets: exchange.body as Listing['pets'], exchange }
  context.fail('limit-default-and-bounds', '200 with an array of pets', exchange)
  return undefined
}
