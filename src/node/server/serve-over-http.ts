import type { RequestHandler } from 'msw'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import type { Secrets } from '../../core/auth/create-masker.js'
import { type AnswerTail, createAnswerTail } from '../../core/pipeline/answer-tail.js'
import type { RequestLog } from '../../core/request-log/create-request-log.js'
import type { Sandbox } from '../../core/sandbox/sandbox.js'
import { type ServingOptions, serverLimitsOf } from './server-limits.js'
import { createClientAddress, type TrustedProxies } from './create-client-address.js'
import { type RunningServer, type StartServerOptions, startServer } from './start-server.js'

export interface ServeOptions {
  sandbox: Sandbox
  serving: ServingOptions
  handlers: (tail: AnswerTail) => RequestHandler[] | Promise<RequestHandler[]>
  requestLog: RequestLog
  /** Masked in every answer (D35). */
  secrets: () => Secrets
  adminGate: AdminGate | undefined
  version: string
  pages: { demoKeys: boolean; petsFrom?: string | undefined; proxy?: boolean }
  trustProxy?: TrustedProxies | undefined
  refusalHeaders?: StartServerOptions['refusalHeaders']
  answerHeaders?: StartServerOptions['answerHeaders']
}

/** Serves a sandbox over HTTP for `start`, `run` and `proxy`. */
export async function serveOverHttp(options: ServeOptions): Promise<RunningServer> {
  const { sandbox, serving, requestLog, secrets, adminGate, version, trustProxy } = options
  const tail = createAnswerTail({ requestLog, now: () => sandbox.clock.now(), secrets })
  const clientAddress = createClientAddress(trustProxy)
  return startServer({
    handlers: await options.handlers(tail),
    port: serving.port,
    host: serving.host,
    tail,
    limits: serverLimitsOf(serving),
    ...(trustProxy ? { trustProxy } : {}),
    ...(options.refusalHeaders ? { refusalHeaders: options.refusalHeaders } : {}),
    ...(options.answerHeaders ? { answerHeaders: options.answerHeaders } : {}),
    pages: async (origin) =>
      (await import('../pages/create-pages-listener.js')).createPagesListener({
        sandbox,
        version,
        origin,
        demoKeys: options.pages.demoKeys,
        petsFrom: options.pages.petsFrom,
        proxy: options.pages.proxy ?? false,
        tail,
        ...(adminGate ? { admin: { gate: adminGate, clientAddress } } : {}),
      }),
  })
}
