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
  const templateSegments = template.split('/')
  const pathSegments = path.split('/')
  for (const rule of rules) {
    const values =
      rule.in === 'query'
        ? [query[rule.name] ?? []].flat()
        : [pathSegments[templateSegments.indexOf(`{${rule.name}}`)]].filter((value): value is string => value !== undefined)
    for (const value of values) {
      if (value === '' && (rule.integer || rule.enumerated)) throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must not be empty`)
      if (rule.integer && !DECIMAL_INTEGER.test(value)) {
        throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must be an integer`)
      }
    }
  }
}
