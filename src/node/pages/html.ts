/** Markup whose text parts were escaped: only `html` makes one, so raw client text cannot pass as markup. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text as HTML text or attribute value: the five characters that could end either are escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!)
}

/**
 * A template whose every value is escaped unless it is already `SafeHtml` (arrays are joined), so a
 * page built with it shows a pet named `<img src=x onerror=alert(1)>` as text.
 *
 * @example
 * html`<td>${name}</td>`.markup // '<td>&lt;img src=x&gt;</td>' for name '<img src=x>'
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0]!
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!
  })
  return new SafeHtml(markup)
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === undefined || value === null || value === false) return ''
  return escapeHtml(String(value))
}
