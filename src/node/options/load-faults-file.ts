import { openapiDocument } from '../../core/contract/openapi-document.js'
import { createRouter } from '../../core/contract/create-router.js'
import { type FaultOptions, resolveFaults } from '../../core/faults/fault-config.js'
import { readJsonFile } from './read-input-file.js'

/**
 * Reads a faults file (`--faults-file`): the document `PUT /__sandbox/faults` takes, such as
 * `petstore-sandbox weather` prints (docs/decisions.md#d45), checked against the admin document's
 * `FaultSettings` and the contract's operations. Any problem is a ConfigError naming the file and the field.
 */
export async function loadFaultsFile(path: string): Promise<FaultOptions> {
  const json = await readJsonFile(path, 'faults file')
  const operationIds = createRouter(openapiDocument)
    .operations()
    .map((operation) => operation.operationId)
  resolveFaults(json, 0, operationIds, `faults file ${path}`)
  return json as FaultOptions
}
