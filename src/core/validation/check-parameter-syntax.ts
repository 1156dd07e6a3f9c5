import type { IHttpOperation } from '@stoplight/types'
import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'

export interface ParameterSyntax {
  name: string
  in: 'query' | 'path'
  integer: boolean
  /** Checks the digits against 64 bits, which a number cannot tell past 2^53 (D37). */
  int64: boolean
  enumerated: boolean
}

const DECIMAL_INTEGER = /^-?\d+$/
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }

/** Returns a parameter schema's syntax rule. */
export function parameterSyntax(
  name: string,
  where: 'query' | 'path',
  schema: { type?: unknown; format?: unknown; enum?: unknown },
): ParameterSyntax {
  return {
    name,
    in: where,
    integer: schema.type === 'integer',
    int64: schema.type === 'integer' && schema.format === 'int64',
    enumerated: Array.isArray(schema.enum),
  }
}

/** Returns a prism operation's parameter rules. */
export function parameterSyntaxOf(operation: IHttpOperation): ParameterSyntax[] {
  const of = (where: 'query' | 'path', parameters: ReadonlyArray<{ name: string; schema?: unknown }> | undefined) =>
    (parameters ?? []).map((parameter) =>
      parameterSyntax(
        parameter.name,
        where,
        (parameter.schema ?? {}) as { type?: unknown; format?: unknown; enum?: unknown },
      ),
    )
  return [...of('query', operation.request?.query), ...of('path', operation.request?.path)]
}

/** Refuses what schema coercion would pass (D3): non-plain digits, empty values, int64s past 64 bits. */
export function checkParameterSyntax(
  rules: ParameterSyntax[],
  template: string,
  path: string,
  query: Record<string, string | string[]>,
): void {
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
  if (value === '' && (rule.integer || rule.enumerated))
    throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must not be empty`)
  if (rule.integer && !DECIMAL_INTEGER.test(value)) {
    throw new HttpError(400, ErrorCode.invalidRequest, `${rule.name} must be an integer`)
  }
  if (rule.int64 && (BigInt(value) < INT64.min || BigInt(value) > INT64.max)) {
    throw new HttpError(
      400,
      ErrorCode.invalidRequest,
      `${rule.name} must be an int64, from ${INT64.min} to ${INT64.max}`,
    )
  }
}
