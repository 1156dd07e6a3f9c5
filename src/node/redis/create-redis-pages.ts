import { createLru } from '../../core/cache/create-lru.js'
import { PET_STATUSES, type PetStatus } from '../../core/store/pet.js'

// A page per status (or none) and limit (1 to 100), over all groups.
const PAGES_KEPT = (PET_STATUSES.length + 1) * 100

export interface RedisPage {
  generation: string
  text: string
}

export interface RedisGroupPages {
  kept(status: PetStatus | undefined, limit: number): RedisPage | undefined
  keep(status: PetStatus | undefined, limit: number, page: RedisPage): void
}

/** Creates the base's page texts this process keeps, which never change within a generation (BENCHMARKS.md, Redis). */
export function createRedisPages() {
  const pages = createLru<RedisPage>(() => PAGES_KEPT)
  return {
    of(prefix: string): RedisGroupPages {
      return {
        kept: (status, limit) => pages.peek(`${prefix}${status ?? ''}:${limit}`),
        keep: (status, limit, page) => {
          pages.put(`${prefix}${status ?? ''}:${limit}`, page)
        },
      }
    },
  }
}

export type RedisPages = ReturnType<typeof createRedisPages>
