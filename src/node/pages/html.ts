/** Markup whose text parts were escaped: only `html` makes one, so raw client text cannot pass as markup. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes the five characters that could end HTML text or an attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!)
}

/** Escapes every value of the template unless it is `SafeHtml` already (arrays are joined). */
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

/** Writes a table's head row: a title that is a string becomes a column header, a `SafeHtml` one stays as it is. */
export function tableHead(titles: readonly (string | SafeHtml)[]): SafeHtml {
  const cells = titles.map((title) => (title instanceof SafeHtml ? title : html`<th scope="col">${title}</th>`))
  return html`<thead><tr>${cells}</tr></thead>`
}
