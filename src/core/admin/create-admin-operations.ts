import { ConfigError, UnknownKeyError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { FaultOptions } from '../faults/fault-config.js'
import type { QuotaChange } from '../state/rate-limit-backend.js'
import type { AdminControls, AdminSessionControls, AdminSessionInit } from './admin-controls.js'
import { UnknownSession } from '../sessions/session-errors.js'
import type { ApiKey, KeyConfig } from '../auth/key-config.js'
import type { Plan } from '../auth/plans.js'
import type { Har } from '../request-log/to-har.js'
import type { LogSelection, RequestLogEntry } from '../request-log/create-request-log.js'
import { JsonPieces, jsonPieces, valuePieces } from '../http/json-pieces.js'
import { createMasker, type Secrets } from '../auth/create-masker.js'
import { noConfiguredKey } from '../auth/no-configured-key.js'
import { unknownScenario } from '../scenarios/scenario-config.js'

/** Holds an admin operation's input, valid against its schema. */
export interface AdminInput {
  params: Record<string, string>
  query: Record<string, string | string[]>
  body: Record<string, unknown> | undefined
  session: () => AdminSessionControls
}

type AdminOperation = (input: AdminInput) => unknown

/** Maps each admin operation on a session (D34) to its `SessionControls` member. */
export const SESSION_OPERATIONS = {
  getState: 'state',
  reset: 'reset',
  getClock: 'clock',
  moveClock: 'clock',
  getKey: 'quota',
  arrangeKey: 'quota',
  setKeyScenario: 'scenarios',
  clearKeyScenario: 'scenarios',
  getFaults: 'faults',
  setFaults: 'faults',
  listRequests: 'requests',
  getHar: 'har',
} as const

/** Creates the admin operations, checking only what no schema says. */
export function createAdminOperations(controls: AdminControls): Record<string, AdminOperation> {
  const clockBody = async (clock: AdminControls['clock']) => {
    await clock.sync()
    return { now: new Date(clock.now()).toISOString() }
  }
  const keyState = async (key: string, read: () => unknown) => {
    try {
      return { key, quota: await read() }
    } catch (error) {
      if (error instanceof ConfigError) throw new HttpError(404, ErrorCode.notFound, error.message)
      throw error
    }
  }
  // The process's key calls show the default session's quota.
  const keyEntry = async (apiKey: ApiKey) => ({
    ...apiKey,
    quota: await controls.session(undefined).quota.get(apiKey.key),
  })
  const sessionNamed = async (name: string) => {
    const summary = await controls.sessions.get(name)
    if (summary === undefined) throw new HttpError(404, ErrorCode.notFound, `no session ${JSON.stringify(name)}`)
    return summary
  }
  const exportContext = (): ExportContext => ({
    secrets: controls.secrets(),
    scenarios: controls
      .session(undefined)
      .scenarios.list()
      .map((scenario) => scenario.name),
  })
  return {
    health: async () => ({ status: 'ok', now: (await clockBody(controls.clock)).now }),
    getState: ({ session }) => session().state(),
    async reset({ query, session }) {
      await session().reset({ clock: query.clock === 'true' })
      return session().state()
    },
    getClock: ({ session }) => clockBody(session().clock),
    async moveClock({ body, session }) {
      const { clock } = session()
      if (typeof body?.set === 'string') {
        if (!Number.isFinite(Date.parse(body.set)))
          throw new HttpError(
            400,
            ErrorCode.invalidRequest,
            'set must be an ISO 8601 instant such as 2030-12-06T00:00:00Z',
          )
        await clock.set(body.set)
      } else {
        await clock.advance(body?.advanceMs as number)
      }
      return clockBody(clock)
    },
    getKey: ({ params, session }) => keyState(params.key!, () => session().quota.get(params.key!)),
    arrangeKey: ({ params, body, session }) =>
      keyState(params.key!, () => session().quota.set(params.key!, body as QuotaChange)),
    addKey: async ({ body }) => keyEntry(await controls.apiKeys.add(body as unknown as KeyConfig)),
    async setKeyPlan({ params, body }) {
      const { plan, ...limits } = body as { plan: Plan; perMinute?: number; perDay?: number }
      return keyEntry(await knownAsync(() => controls.apiKeys.setPlan(params.key!, plan, limits)))
    },
    async revokeKey({ params }) {
      await knownAsync(() => controls.apiKeys.revoke(params.key!))
      return { key: params.key!, revoked: true }
    },
    async setKeyScenario({ params, body, session }) {
      await knownAsync(async () => session().scenarios.set(params.key!, body?.name as string))
      return { key: params.key!, scenario: body?.name as string }
    },
    async clearKeyScenario({ params, session }) {
      await knownAsync(async () => session().scenarios.clear(params.key!))
      return { key: params.key!, scenario: null }
    },
    getFaults: ({ session }) => session().faults.get(),
    setFaults: ({ body, session }) => session().faults.set(body as FaultOptions),
    // D36.
    getHar({ query, session }) {
      const { log } = harAnswer(session().har, query, exportContext())
      return new JsonPieces(() => jsonPieces({ log: { ...log, entries: [] } }, log.entries))
    },
    async listRequests({ query, session }) {
      const requests = await session().requests(exportSelection(query, exportContext()))
      return new JsonPieces(() => jsonPieces({ requests: [] }, requests))
    },
    listSessions: async () => ({ sessions: await controls.sessions.list() }),
    getSession: ({ params }) => sessionNamed(params.name!),
    async putSession({ params, body }) {
      try {
        return await controls.sessions.put(params.name!, (body ?? {}) as AdminSessionInit)
      } catch (error) {
        if (error instanceof UnknownSession) throw new HttpError(404, ErrorCode.notFound, error.message)
        throw error
      }
    },
    addSessionKey: ({ params, body }) => controls.sessions.addKey(params.name!, body),
    async getSessionCapsule({ params }) {
      const capsule = await controls.sessions.capsule(params.name!)
      if (capsule === undefined)
        throw new HttpError(404, ErrorCode.notFound, `no session ${JSON.stringify(params.name!)}`)
      // It holds the session's HAR (D36).
      return new JsonPieces(() => valuePieces(capsule))
    },
    deleteSessions: async ({ query }) => ({
      deleted: await controls.sessions.deleteAll(typeof query.prefix === 'string' ? { prefix: query.prefix } : {}),
    }),
    async deleteSession({ params }) {
      const name = params.name!
      if (!(await controls.sessions.delete(name)))
        throw new HttpError(404, ErrorCode.notFound, `no session ${JSON.stringify(name)}`)
      return { name, deleted: true }
    },
    ...(controls.proxyState === undefined ? {} : { getProxy: controls.proxyState }),
    ...(controls.shadowReport === undefined ? {} : { getShadow: controls.shadowReport }),
  }
}

/** Lists the exports' filters by query parameter (D36). */
const EXPORT_FILTERS: Readonly<
  Record<string, (value: string, context: ExportContext) => (entry: RequestLogEntry) => boolean>
> = {
  // Replays one key (routeFromHAR matches method and URL only).
  key(value, { secrets }) {
    if (!secrets.keys.includes(value))
      throw new HttpError(404, ErrorCode.notFound, `key: ${noConfiguredKey(value, secrets.keys)}`)
    const shown = createMasker(secrets).credential(`Bearer ${value}`)
    return (entry) => entry.key === shown
  },
  scenario(value, { scenarios }) {
    if (scenarios !== undefined && !scenarios.includes(value))
      throw new HttpError(400, ErrorCode.invalidRequest, `scenario: ${unknownScenario(value, scenarios)}`)
    return (entry) => entry.scenario === value
  },
}

/** Holds what the export filters read. */
export interface ExportContext {
  secrets: Secrets
  /** Refuses a `scenario` filter naming another. */
  scenarios?: readonly string[] | undefined
}

/** Reads an export's `limit` and filters from its query. */
export function exportSelection(query: AdminInput['query'], context: ExportContext): LogSelection {
  const tests = Object.entries(EXPORT_FILTERS).flatMap(([name, filter]) => {
    const value = query[name]
    return typeof value === 'string' ? [filter(value, context)] : []
  })
  return {
    ...(typeof query.limit === 'string' ? { limit: Number(query.limit) } : {}),
    ...(tests.length === 0 ? {} : { match: (entry: RequestLogEntry) => tests.every((test) => test(entry)) }),
  }
}

/** Answers `GET /__sandbox/requests.har`; an `id` not kept is a 404. */
function harAnswer(har: AdminSessionControls['har'], query: AdminInput['query'], context: ExportContext): Har {
  const id = typeof query.id === 'string' ? query.id : undefined
  const answer = har(id === undefined ? exportSelection(query, context) : { id })
  if (id !== undefined && answer.log.entries.length === 0) {
    throw new HttpError(
      404,
      ErrorCode.notFound,
      `no exchange ${JSON.stringify(id.slice(0, 40))} kept here: ` +
        'it is older than the last kept, or another process answered it',
    )
  }
  return answer
}

/** Answers an unknown key with a 404, not a 400. */
async function knownAsync<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw notFound(error)
  }
}

function notFound(error: unknown): unknown {
  return error instanceof UnknownKeyError ? new HttpError(404, ErrorCode.notFound, error.message) : error
}
