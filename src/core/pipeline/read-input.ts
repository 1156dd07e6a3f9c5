import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { queryOf } from '../http/query-of.js'
import type { OperationInput } from '../operations/operation.js'
import { readJsonText } from '../validation/read-json-body.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import type { Resolution } from './resolve.js'

/**
 * The operation's input, decoded and valid against the contract: path parameters, the query and,
 * for an operation that takes one, the JSON body (D9). Anything else is a 400 naming the field (D3).
 */
export async function readInput(
  parts: ApiHandlerParts,
  request: Request,
  url: URL,
  apiPath: string,
  { info, params }: Resolution,
): Promise<OperationInput & { bodyText?: string }> {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) decoded[name] = decodeComponent(value, name)
  const path = decodeComponent(apiPath, 'path')
  const read = info.readsBody ? await readJsonText(request) : undefined
  const body = read?.value
  const query = queryOf(url)
  parts.validator.validate(info.operationId, { path, query, ...(body === undefined ? {} : { body }) })
  return { query, params: decoded, body, bodyText: read?.text }
}

function decodeComponent(value: string, name: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new HttpError(400, ErrorCode.invalidRequest, `${name} is not valid percent-encoded UTF-8`)
  }
}
