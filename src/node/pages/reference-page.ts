import { html, SafeHtml } from './html.js'
import { pageShell } from './page-shell.js'

/** Builds /reference, Swagger UI over the contract with the document inline as data (BENCHMARKS.md#page-load). */
export function referencePage({
  demoKey,
  contractJson,
  swaggerUi,
}: {
  demoKey: string | undefined
  contractJson: string
  swaggerUi: string
}): SafeHtml {
  const documents = html`<a href="/openapi.yaml">openapi.yaml</a> · <a href="/openapi.json">openapi.json</a>`
  const crumbs = html`<a href="/">petstore-sandbox</a> · API reference · ${documents}`
  return pageShell({
    title: 'Animal Store API reference · petstore-sandbox',
    styles: [`/assets/swagger-ui/swagger-ui.css?v=${swaggerUi}`],
    body: html`<header class="bar"><p class="crumbs">${crumbs}</p></header>
<main class="reference">
<h1 class="visually-hidden">Animal Store API reference</h1>
<div id="swagger-ui" data-demo-key="${demoKey ?? ''}"></div>
</main>
<script type="application/json" id="openapi-document">${dataBlock(contractJson)}</script>
<script defer src="/assets/swagger-ui/swagger-ui-bundle.js?v=${swaggerUi}"></script>`,
    scripts: ['/assets/reference.js'],
  })
}

/** JSON as the text of a script element: no `<` at all, so nothing in it can end the element. */
function dataBlock(json: string): SafeHtml {
  return new SafeHtml(json.replaceAll('<', '\\u003c'))
}
