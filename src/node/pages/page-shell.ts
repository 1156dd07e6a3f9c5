import { html, type SafeHtml } from './html.js'

export interface PageShellInput {
  title: string
  body: SafeHtml
  /** Module scripts under /assets/, run after the page is parsed. */
  scripts?: string[]
  styles?: string[]
}

/** Wraps every page: one stylesheet, no inline script, a single landmark. */
export function pageShell({ title, body, scripts = [], styles = [] }: PageShellInput): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/pages.css">
${styles.map((href) => html`<link rel="stylesheet" href="${href}">`)}
</head>
<body>
${body}
${scripts.map((src) => html`<script type="module" src="${src}"></script>`)}
</body>
</html>
`
}
