/** The Error codes only the proxy answers with, beside the sandbox's own (src/errors/error-code.ts). */
export const ProxyErrorCode = {
  upstreamUnreachable: 'upstream_unreachable',
  upstreamTimeout: 'upstream_timeout',
} as const
