/** Types the parts of an OpenAPI 3.1 document the sandbox reads. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; [key: string]: unknown }
  paths: Record<string, Record<string, unknown>>
  components?: Record<string, unknown>
  [key: string]: unknown
}
