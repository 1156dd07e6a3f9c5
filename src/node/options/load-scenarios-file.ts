import { openapiDocument } from '../../core/contract/openapi-document.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { readJsonFile } from './read-input-file.js'
import { forcibleStatuses } from '../../core/scenarios/forced-status.js'
import { resolveScenarios, type ScenarioDefinition } from '../../core/scenarios/scenario-config.js'

/** Reads a scenarios file (`--scenarios`). */
export async function loadScenariosFile(path: string): Promise<Record<string, ScenarioDefinition>> {
  const json = await readJsonFile(path, 'scenarios file')
  const fields = typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.keys(json) : []
  if (fields.length !== 1 || fields[0] !== 'scenarios')
    throw new ConfigError(`scenarios file ${path} must be an object with one field, "scenarios"`)
  const custom = (json as { scenarios: unknown }).scenarios
  resolveScenarios(custom, forcibleStatuses(openapiDocument), `scenarios file ${path}`)
  return custom as Record<string, ScenarioDefinition>
}
