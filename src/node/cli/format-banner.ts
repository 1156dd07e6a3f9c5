import type { ApiKey } from '../../core/auth/key-config.js'
import { DEMO_KEYS } from '../../core/auth/demo-keys.js'
import { maskKey } from '../../core/auth/mask-key.js'
import type { InForceItem, InForceLine } from '../pages/describe-in-force.js'

const DEMO = new Set(DEMO_KEYS.map(({ key }) => key))

export interface BannerInput {
  url: string
  version: string
  options: { host: string; maxPets?: number; trustProxy?: string[]; trustProxyHeader: string }
  keys: readonly ApiKey[]
  showKeys: boolean
  inForce: readonly InForceLine[]
  fromEnvironment: Partial<Record<InForceItem, readonly string[]>>
}

/** Formats what `start` prints once it listens. */
export function formatBanner({ url, version, options, keys, showKeys, inForce, fromEnvironment }: BannerInput): string {
  const lines = [`petstore-sandbox ${version}: Animal Store API v1`, `Listening on ${url}`]
  // Keys from a keys file are secrets.
  lines.push(
    showKeys ? 'Demo keys (send Authorization: Bearer <key>):' : `${keys.length} key(s) from the keys file (masked):`,
  )
  for (const key of keys) {
    // A capsule's keys are its team's, not demo keys.
    const shown = showKeys && DEMO.has(key.key) ? key.key : maskKey(key.key)
    lines.push(
      `  ${key.plan.padEnd(10)} ${shown.padEnd(24)} ${String(key.perMinute).padStart(5)}/min ` +
        `${String(key.perDay).padStart(8)}/day`,
    )
  }
  // A stale variable in a teammate's shell is the usual surprise.
  lines.push('In force:')
  for (const { item, label, text } of inForce) {
    const variables = fromEnvironment[item] ?? []
    lines.push(`  ${label}: ${text}${variables.length === 0 ? '' : ` (from ${variables.join(', ')})`}`)
  }
  const origin = new URL(url).origin
  lines.push(`Probes: ${origin}/healthz (alive), ${origin}/readyz (ready to serve); no key needed`)
  if (options.maxPets !== undefined) lines.push(`Stores at most ${options.maxPets} pets (--max-pets)`)
  if (options.trustProxy !== undefined)
    lines.push(`Client addresses from ${options.trustProxyHeader} of trusted proxies: ${options.trustProxy.join(', ')}`)
  // The bound address: '::0' is every interface too.
  const bound = new URL(url).hostname
  if (bound === '0.0.0.0' || bound === '[::]') {
    lines.push(
      `Warning: bound to all interfaces (${options.host}); anyone who can reach this machine can call the sandbox`,
    )
  }
  lines.push(
    `Try: curl -H 'Authorization: Bearer ${showKeys ? (keys[0]?.key ?? '<key>') : '<key>'}' ${url}/pets?limit=3`,
  )
  return lines.join('\n')
}
