import { inArea, UNSPECIFIED_AREAS } from '../contract/create-api-scope.js'
import type { OperationInfo } from '../contract/create-router.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Operation } from '../operations/operation.js'
import type { Admission } from './admission.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'

export interface Resolution {
  info: OperationInfo
  operation: Operation
  params: Record<string, string>
}

/** Resolves an admitted request's operation, or refuses it (D10, D11, D18). */
export function resolve(
  parts: ApiHandlerParts,
  world: WorldParts,
  { apiPath, route, deprecation }: Omit<Admission, 'key'>,
  method: string,
): Resolution {
  const prefix = parts.scope.prefix
  if (inArea(apiPath, UNSPECIFIED_AREAS)) {
    throw new HttpError(
      501,
      ErrorCode.notImplemented,
      `${prefix}${apiPath}: this area exists, but its behaviour is not yet specified`,
    )
  }
  if (route === undefined || route.kind === 'not-found') {
    throw new HttpError(404, ErrorCode.notFound, `no resource at ${prefix}${apiPath}`)
  }
  if (route.kind === 'method-not-allowed') {
    const allow = withHead(route.allow).concat('OPTIONS').join(', ')
    throw new HttpError(
      405,
      ErrorCode.methodNotAllowed,
      `${method} is not allowed on ${prefix}${apiPath}; allowed: ${allow}`,
      { allow },
    )
  }
  if (deprecation !== undefined && world.clock.now() >= deprecation.sunset) {
    throw new HttpError(
      410,
      ErrorCode.gone,
      `${route.operation.method} ${prefix}${route.operation.path} was removed on ` +
        `${new Date(deprecation.sunset).toUTCString()}; use ${deprecation.successor} instead`,
    )
  }
  const operation = world.operations[route.operation.operationId]
  if (operation === undefined) throw new Error(`no implementation for ${route.operation.operationId}`)
  return { info: route.operation, operation, params: route.params }
}

/** Lists a path's methods for `Allow`, HEAD wherever GET is. */
export function withHead(methods: readonly string[]): string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : [...methods]
}
