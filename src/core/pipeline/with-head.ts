/**
 * The methods of a path as `Allow` lists them: HEAD wherever GET is, since HEAD is answered like GET.
 *
 * @example
 * withHead(['GET', 'POST']) // ['GET', 'POST', 'HEAD']
 */
export function withHead(methods: readonly string[]): string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : [...methods]
}
