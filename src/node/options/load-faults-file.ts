import { openapiDocument } from '../../core/contract/openapi-document.js'
import { createRouter } from '../../core/contract/create-router.js'
import { type FaultOptions, resolveFaults } from '../../core/faults/fault-config.js'
import { readJsonFile } from './read-input-file.js'

/** Reads a faults file (`--faults-file`), as `weather` prints it (D45). */
export async function loadFaultsFile(path: string): Promise<FaultOptions> {
  const json = await readJsonFile(path, 'faults file')
  const operationIds = createRouter(openapiDocument)
    .operations()
    .map((operation) => operation.operationId)
  resolveFaults(json, 0, operationIds, `faults file ${path}`)
  return json as FaultOptions
}
