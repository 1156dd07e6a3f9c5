/**
 * Sent with every page and asset: no inline or foreign script can run (a hostile pet name or path
 * that slipped through escaping stays inert), nothing is fetched from elsewhere, and the page can
 * be framed by nobody. Inline styles stay allowed: Swagger UI sets style attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** The headers of every page and asset the sandbox serves (docs/reliability.md#pages). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
}
