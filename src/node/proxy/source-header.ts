/** The header every answer of the proxy carries: `upstream` or `sandbox`, whoever answered. */
export const SOURCE_HEADER = 'X-Sandbox-Source'
