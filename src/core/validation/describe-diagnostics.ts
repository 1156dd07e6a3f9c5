/** A prism diagnostic, as much of it as we read. */
export interface Diagnostic {
  path?: Array<string | number>
  code?: string | number
  message: string
}

/** The bounds of each parameter, for messages like "limit must be between 1 and 100". */
export type ParameterBounds = Record<string, { name: string; minimum?: number; maximum?: number }>

const PREFIX = /^Request (?:query parameter|path parameter|header parameter|body property) \S+ |^Request body /

/**
 * Turns prism's diagnostics into one message that names each offending field once
 * (D2: `limit must be between 1 and 100`, `name is required`).
 */
export function describeDiagnostics(diagnostics: readonly Diagnostic[], bounds: ParameterBounds): string {
  const byField = new Map<string, string>()
  for (const diagnostic of diagnostics) {
    const [location, ...rest] = diagnostic.path ?? []
    let field = rest.join('.')
    if (location === 'query' || location === 'path') field = bounds[field.toLowerCase()]?.name ?? field
    const required = diagnostic.code === 'required' ? /property '([^']+)'/.exec(diagnostic.message) : null
    if (required) {
      const name = field === '' ? required[1]! : `${field}.${required[1]!}`
      if (!byField.has(name)) byField.set(name, `${name} is required`)
      continue
    }
    if (field === '') field = location === 'body' ? 'body' : String(location ?? 'request')
    if (byField.has(field)) continue
    const bound = bounds[field.toLowerCase()]
    if ((diagnostic.code === 'minimum' || diagnostic.code === 'maximum') && bound?.minimum !== undefined && bound.maximum !== undefined) {
      byField.set(field, `${field} must be between ${bound.minimum} and ${bound.maximum}`)
      continue
    }
    const reason = diagnostic.message
      .replace(PREFIX, '')
      .replace(/^must be (integer|object|array)$/, 'must be an $1')
      .replace(/^must be (string|number|boolean)$/, 'must be a $1')
    byField.set(field, `${field} ${reason}`)
  }
  return [...byField.values()].join('; ')
}
