import type { OpenApiDocument } from './openapi-document-type.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface OperationInfo {
  operationId: string
  method: string
  /** Is below the server prefix: `/pets/{petId}`. */
  path: string
  deprecated: boolean
  readsBody: boolean
  /** Is the first success status, else 200. */
  successStatus: number
  extensions: Record<string, unknown>
}

export type RouteMatch =
  | { kind: 'operation'; operation: OperationInfo; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }

interface Route {
  segments: string[]
  operations: Map<string, OperationInfo>
}

/** Creates a router from a document's paths: an operation, a 405 (D10), or a 404. */
export function createRouter(document: OpenApiDocument) {
  const routes: Route[] = Object.entries(document.paths).map(([path, item]) => {
    const operations = new Map<string, OperationInfo>()
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined
      if (operation === undefined) continue
      operations.set(method.toUpperCase(), {
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        path,
        deprecated: operation.deprecated === true,
        readsBody: operation.requestBody !== undefined,
        successStatus: Number(
          Object.keys((operation.responses as Record<string, unknown> | undefined) ?? {}).find((status) =>
            /^2\d\d$/.test(status),
          ) ?? 200,
        ),
        extensions: Object.fromEntries(Object.entries(operation).filter(([key]) => key.startsWith('x-'))),
      })
    }
    return { segments: path.split('/').slice(1), operations }
  })

  return {
    match(method: string, pathname: string): RouteMatch {
      const segments = pathname.split('/').slice(1)
      for (const route of routes) {
        const params = matchSegments(route.segments, segments)
        if (params === undefined) continue
        const operation = route.operations.get(method)
        if (operation !== undefined) return { kind: 'operation', operation, params }
        return { kind: 'method-not-allowed', allow: [...route.operations.keys()] }
      }
      return { kind: 'not-found' }
    },
    operations: (): OperationInfo[] => routes.flatMap((route) => [...route.operations.values()]),
  }
}

export type Router = ReturnType<typeof createRouter>

function matchSegments(template: string[], actual: string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < template.length; i++) {
    const expected = template[i]!
    const value = actual[i]!
    if (expected.startsWith('{') && expected.endsWith('}')) {
      if (value === '') return undefined
      params[expected.slice(1, -1)] = value
    } else if (expected !== value) {
      return undefined
    }
  }
  return params
}
