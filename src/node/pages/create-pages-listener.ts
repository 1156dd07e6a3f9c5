import type { IncomingMessage, ServerResponse } from 'node:http'
import { DEMO_KEYS } from '../../core/auth/demo-keys.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
import type { Sandbox } from '../../core/sandbox/sandbox.js'
import type { Timing } from '../../core/state/maybe-promise.js'
import type { AnswerTail } from '../../core/pipeline/answer-tail.js'
import { describeInForce } from './describe-in-force.js'
import { createEventStream, type EventStreamAdmin } from './create-event-stream.js'
import { dashboardPage } from './dashboard-page.js'
import { frontDoor } from './front-door.js'
import { frontDoorPage } from './front-door-page.js'
import { pageOrigin } from './page-origin.js'
import { acceptsGzip } from './accepts-gzip.js'
import { prefersJson } from './prefers-json.js'
import { referencePage } from './reference-page.js'
import { createServedContract } from './served-contract.js'
import { postmanCollection } from './postman-collection.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import { sendError, sendNoContent, sendPage } from './send-page.js'
import { createStaticAssets } from './static-assets.js'
import { createRequire } from 'node:module'

export interface PagesOptions {
  sandbox: Sandbox<Timing>
  version: string
  origin: string
  demoKeys: boolean
  /** The dashboard and its event stream exist only with an admin token. */
  admin?: EventStreamAdmin
  tail: AnswerTail
  proxy?: boolean
  petsFrom?: string | undefined
}

export interface PagesListener {
  handle(incoming: IncomingMessage, outgoing: ServerResponse): boolean
  /** Ends the open event streams, which a shutdown would wait for. */
  close(): void
}

/** Creates the pages, read with no key and no quota (docs/running-for-a-team.md#pages). */
export function createPagesListener({
  sandbox,
  version,
  origin,
  demoKeys,
  admin,
  petsFrom,
  tail,
  proxy = false,
}: PagesOptions): PagesListener {
  const assets = createStaticAssets()
  const swaggerUi = swaggerUiVersion()
  const contract = createServedContract()
  const events = admin === undefined ? undefined : createEventStream(sandbox, tail, admin)
  const demo = new Set(DEMO_KEYS.map((key) => key.key))
  // One revoked at runtime is no longer offered.
  const shownDemoKeys = () => (demoKeys ? sandbox.keys.filter((key) => demo.has(key.key)) : undefined)

  function route(path: string): ((incoming: IncomingMessage, outgoing: ServerResponse) => void) | undefined {
    switch (path) {
      case '/':
        return (incoming, outgoing) => {
          const at = pageOrigin(incoming, origin)
          const answer = async () => {
            const inForce = describeInForce(await sandbox.state(), { admin: admin !== undefined, petsFrom, origin: at })
            const door = frontDoor({
              version,
              origin: at,
              demoKeys: shownDemoKeys(),
              dashboard: admin !== undefined,
              inForce,
            })
            if (prefersJson(incoming.headers.accept))
              sendPage(incoming, outgoing, 200, JSON_CONTENT_TYPE, JSON.stringify(door), { vary: 'Accept' })
            else
              sendPage(incoming, outgoing, 200, 'text/html; charset=utf-8', frontDoorPage(door).markup, {
                vary: 'Accept',
              })
          }
          // Shared state down: a 503, not a crash.
          answer().catch(() =>
            sendError(
              tail,
              incoming,
              outgoing,
              new HttpError(
                503,
                ErrorCode.serviceUnavailable,
                'what is in force cannot be read now; try again shortly',
              ),
            ),
          )
        }
      case '/openapi.yaml':
      case '/openapi.json':
        return (incoming, outgoing) => {
          const served = contract(pageOrigin(incoming, origin))
          const yaml = path === '/openapi.yaml'
          // Client generators and hosted viewers read it from other origins.
          sendPage(
            incoming,
            outgoing,
            200,
            yaml ? 'application/yaml; charset=utf-8' : JSON_CONTENT_TYPE,
            yaml ? served.yaml : served.json,
            {
              'access-control-allow-origin': '*',
            },
          )
        }
      case '/postman.json':
        return (incoming, outgoing) => {
          const collection = postmanCollection({
            document: openapiDocument,
            baseUrl: `${pageOrigin(incoming, origin)}/v1`,
            demoKeys: shownDemoKeys(),
          })
          sendPage(incoming, outgoing, 200, JSON_CONTENT_TYPE, JSON.stringify(collection, null, 2), {
            'access-control-allow-origin': '*',
          })
        }
      case '/reference':
        return (incoming, outgoing) =>
          sendPage(
            incoming,
            outgoing,
            200,
            'text/html; charset=utf-8',
            referencePage({
              demoKey: shownDemoKeys()?.[0]?.key,
              contractJson: contract(pageOrigin(incoming, origin)).json,
              swaggerUi,
            }).markup,
          )
      case '/favicon.ico':
        // No icon, but no 404 in the console, and never in the request log.
        return (_, outgoing) => sendNoContent(outgoing, { 'cache-control': 'public, max-age=86400' })
      case '/__sandbox/':
        return admin === undefined
          ? undefined
          : (incoming, outgoing) =>
              sendPage(incoming, outgoing, 200, 'text/html; charset=utf-8', dashboardPage({ proxy }).markup)
      case '/__sandbox/events':
        return events === undefined ? undefined : (incoming, outgoing) => events.open(incoming, outgoing)
      default: {
        const asset = assets(path)
        if (asset === undefined) return undefined
        return (incoming, outgoing) => {
          // Its URL names its version (BENCHMARKS.md#page-load).
          const versioned =
            asset.immutable && new URLSearchParams((incoming.url ?? '').split('?')[1] ?? '').get('v') === swaggerUi
          const caching: Record<string, string> = versioned
            ? { 'cache-control': 'public, max-age=31536000, immutable' }
            : asset.immutable
              ? { 'cache-control': 'public, max-age=3600' }
              : {}
          if (acceptsGzip(incoming.headers['accept-encoding'])) {
            sendPage(incoming, outgoing, 200, asset.type, asset.gzipped, {
              ...caching,
              'content-encoding': 'gzip',
              vary: 'Accept-Encoding',
            })
          } else {
            sendPage(incoming, outgoing, 200, asset.type, asset.body, { ...caching, vary: 'Accept-Encoding' })
          }
        }
      }
    }
  }

  return {
    handle(incoming, outgoing) {
      const path = (incoming.url ?? '/').split('?')[0]!
      const answer = route(path)
      if (answer === undefined) return false
      const method = incoming.method ?? 'GET'
      if (method !== 'GET' && method !== 'HEAD') {
        sendError(
          tail,
          incoming,
          outgoing,
          new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${path}; allowed: GET, HEAD`, {
            allow: 'GET, HEAD',
          }),
        )
        incoming.resume()
        return true
      }
      answer(incoming, outgoing)
      return true
    },
    close: () => events?.close(),
  }
}

/** Returns the `swagger-ui-dist` version, which names its assets' URLs (`?v=`) so they cache for good. */
export function swaggerUiVersion(): string {
  return (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version
}
