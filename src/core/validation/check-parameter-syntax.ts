import type { IHttpOperation } from '@stoplight/types'
import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'

/** What the syntax check needs to know of one query or path parameter. */
export interface ParameterSyntax {
  name: string
  in: 'query' | 'path'
  integer: boolean
  enumerated: boolean
}

const DECIMAL_INTEGER = /^-?\d+$/

/** The parameters of a prism operation whose syntax `checkParameterSyntax` enforces. */
export function parameterSyntaxOf(operation: IHttpOperation): ParameterSyntax[] {
  const of = (where: 'query' | 'path', parameters: ReadonlyArray<{ name: string; schema?: unknown }> | undefined) =>
    (parameters ?? []).map((parameter) => {
      const schema = (parameter.schema ?? {}) as { type?: unknown; enum?: unknown }
      return { name: parameter.name, in: where, integer: schema.type === 'integer', enumerated: Array.isArray(schema.enum) }
    })
  return [...of('query', operation.request?.query), ...of('path', operation.request?.path)]
}

/**
 * D3 before prism sees the request: prism coerces strings the way `Number()` does, so `1e3`,
 * `0x10`, ` 1` or `1.0` would pass as integers and an empty `limit=` or `status=` as absent.
 * Integers must be plain decimal digits, and integer or enumerated parameters must not be empty.
 *
 * @example
 * checkParameterSyntax(rules, '/pets/{petId}', '/pets/0x10', {}) // throws 400 "petId must be an integer"
 */
export function checkParameterSyntax(rules: ParameterSyntax[], template: string, path: string, query: Record<string, string | string[]>): void {
  let segments: { template: string[]; path: string[] } | undefined
  for (const rule of rules) {
    if (rule.in === 'query') {
      const value = query[rule.name]
      if (typeof value === 'string') checkValue(rule, value)
      else if (value !== undefined) for (const each of value) checkValue(rule, each)
      continue
    }
    segments ??= { template: template.split('/'), path: path.split('/') }
    const value = segments.path[segments.template.indexOf(`{${rule.name}}`)]
    if (value !== undefined) checkValue(rule, value)
  }
}

function checkValue(rule: ParameterSyntax, value: string): void {
  if (value === '' && (rule.integer || rule.enumerated)) throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must not be empty`)
  if (rule.integer && !DECIMAL_INTEGER.test(value)) {
    throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must be an integer`)
  }
}
