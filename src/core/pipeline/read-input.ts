import type { SandboxRequest } from '../http/sandbox-request.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { queryOf } from '../http/query-of.js'
import type { OperationInput } from '../operations/operation.js'
import { readJsonBody } from '../validation/read-json-body.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import type { Resolution } from './resolve.js'

/** Reads the operation's input, valid against the contract (D3, D9). */
export function readInput(
  parts: ApiHandlerParts,
  request: SandboxRequest,
  url: URL,
  apiPath: string,
  resolution: Resolution,
  onBodyText?: (text: string) => void,
): OperationInput | Promise<OperationInput> {
  return resolution.info.readsBody
    ? readJsonBody(request, onBodyText).then((body) => checked(parts, url, apiPath, resolution, body))
    : checked(parts, url, apiPath, resolution, undefined)
}

function checked(
  parts: ApiHandlerParts,
  url: URL,
  apiPath: string,
  { info, params }: Resolution,
  body: Record<string, unknown> | undefined,
): OperationInput {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) decoded[name] = decodeComponent(value, name)
  if (body !== undefined) {
    const query = queryOf(url)
    parts.validator.validate(info.operationId, { path: decodeComponent(apiPath, 'path'), query, body })
    return { query, params: decoded, body }
  }
  // Depends on the operation, the path and the query alone: read once while remembered (BENCHMARKS.md).
  return parts.validator.readValid(
    info.operationId,
    apiPath + url.search,
    () => ({ path: decodeComponent(apiPath, 'path'), query: queryOf(url) }),
    ({ query }) => deepFrozen({ query, params: decoded, body: undefined }),
  )
}

/** Freezes an input shared by the requests that read it. */
function deepFrozen(input: OperationInput): OperationInput {
  for (const value of Object.values(input.query)) if (Array.isArray(value)) Object.freeze(value)
  Object.freeze(input.query)
  Object.freeze(input.params)
  return Object.freeze(input)
}

function decodeComponent(value: string, name: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new HttpError(400, ErrorCode.invalidRequest, `${name} is not valid percent-encoded UTF-8`)
  }
}
