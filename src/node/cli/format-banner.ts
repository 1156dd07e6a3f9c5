import type { ApiKey } from '../../core/auth/key-config.js'

export interface BannerInput {
  url: string
  version: string
  options: { seed: number; pets: number; host: string }
  keys: readonly ApiKey[]
  showKeys: boolean
  now: number
}

/** What `start` prints once it listens: the address first, then the keys to call it with. */
export function formatBanner({ url, version, options, keys, showKeys, now }: BannerInput): string {
  const lines = [
    `petstore-sandbox ${version}: Animal Store API v1, ${options.pets} pets (seed ${options.seed}), clock at ${new Date(now).toISOString()}`,
    `Listening on ${url}`,
  ]
  if (showKeys) {
    lines.push('Demo keys (send Authorization: Bearer <key>):')
    for (const key of keys) {
      lines.push(`  ${key.plan.padEnd(10)} ${key.key.padEnd(24)} ${String(key.perMinute).padStart(5)}/min ${String(key.perDay).padStart(8)}/day`)
    }
  } else {
    lines.push(`${keys.length} key(s) loaded from the keys file`)
  }
  // The bound address, not the option as typed: '::0' or '0:0:0:0:0:0:0:0' are all interfaces too.
  const bound = new URL(url).hostname
  if (bound === '0.0.0.0' || bound === '[::]') {
    lines.push(`Warning: bound to all interfaces (${options.host}); anyone who can reach this machine can call the sandbox`)
  }
  // Keys from a keys file are secrets: only demo keys are printed.
  lines.push(`Try: curl -H 'Authorization: Bearer ${showKeys ? (keys[0]?.key ?? '<key>') : '<key>'}' ${url}/pets?limit=3`)
  return lines.join('\n')
}
