import type { ApiKey } from '../../core/auth/key-config.js'
import type { InForceLine } from './describe-in-force.js'

/** What `/` says, as JSON or as the page. */
export interface FrontDoor {
  name: string
  version: string
  description: string
  baseUrl: string
  /** The demo keys still configured, when the sandbox runs with them; absent with a keys file. */
  demoKeys?: Array<{ key: string; plan: string; perMinute: number; perDay: number }>
  /** What is in force, as the start banner says it. */
  inForce: InForceLine[]
  links: Record<string, { href: string; title: string }>
}

export interface FrontDoorInput {
  version: string
  origin: string
  demoKeys: readonly ApiKey[] | undefined
  dashboard: boolean
  inForce: InForceLine[]
}

/** Returns the front door's content, read with no key and no quota. */
export function frontDoor({ version, origin, demoKeys, dashboard, inForce }: FrontDoorInput): FrontDoor {
  return {
    name: 'petstore-sandbox',
    version,
    description: 'A stateful stand-in for the Animal Store API (v1) staging environment.',
    baseUrl: `${origin}/v1`,
    ...(demoKeys === undefined
      ? {}
      : { demoKeys: demoKeys.map(({ key, plan, perMinute, perDay }) => ({ key, plan, perMinute, perDay })) }),
    inForce,
    links: {
      reference: { href: '/reference', title: 'Interactive API reference' },
      openapiYaml: { href: '/openapi.yaml', title: 'OpenAPI document (YAML)' },
      openapiJson: { href: '/openapi.json', title: 'OpenAPI document (JSON)' },
      postman: { href: '/postman.json', title: 'Postman collection (v2.1), a test per request' },
      healthz: { href: '/healthz', title: 'Liveness probe (no key)' },
      readyz: { href: '/readyz', title: 'Readiness probe (no key)' },
      ...(dashboard ? { dashboard: { href: '/__sandbox/', title: 'Dashboard (admin token)' } } : {}),
    },
  }
}
