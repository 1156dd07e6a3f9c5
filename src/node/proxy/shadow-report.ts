import type { ShadowDifference, ShadowReport } from '../../core/admin/admin-controls.js'

/** Bounds the difference groups the report holds; the rest are counted in `unlisted`. */
export const MAX_DIFFERENCE_GROUPS = 100

/** The most characters a value of a difference shows (the admin document's ShadowDifference). */
export const MAX_SHOWN_CHARS = 200

/** A difference found on one exchange, before it is grouped. */
export type FoundDifference = Omit<ShadowDifference, 'count'>

/** Creates the drift report of `proxy --shadow` (D42), bounded in groups (BENCHMARKS.md#the-shadow). */
export function createShadowReport() {
  const groups = new Map<string, ShadowDifference>()
  const counts = { exchanges: 0, compared: 0, dropped: 0, unlisted: 0 }
  return {
    handed: () => void counts.exchanges++,
    compared: () => void counts.compared++,
    dropped: () => void counts.dropped++,
    differed(found: FoundDifference): void {
      const id = `${found.operation}\u0000${found.aspect}\u0000${found.kind}\u0000${found.decision ?? ''}`
      const group = groups.get(id)
      if (group !== undefined) group.count++
      else if (groups.size < MAX_DIFFERENCE_GROUPS) groups.set(id, { ...found, count: 1 })
      else counts.unlisted++
    },
    snapshot: (): ShadowReport => ({
      ...counts,
      differences: [...groups.values()].map((group) => ({ ...group, example: { ...group.example } })),
    }),
  }
}

export type ShadowReportTally = ReturnType<typeof createShadowReport>
