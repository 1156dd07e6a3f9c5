import { html, type SafeHtml } from './html.js'
import { pageShell } from './page-shell.js'

/**
 * /reference: Swagger UI over /openapi.json, served from the package. Its "Try it out" calls this
 * sandbox (the document's servers point here) with `demoKey` already authorised, when there is one.
 */
export function referencePage(demoKey: string | undefined): SafeHtml {
  return pageShell({
    title: 'Animal Store API reference · petstore-sandbox',
    styles: ['/assets/swagger-ui/swagger-ui.css'],
    body: html`<header class="bar"><p class="crumbs"><a href="/">petstore-sandbox</a> · API reference</p></header>
<main class="reference">
<h1 class="visually-hidden">Animal Store API reference</h1>
<div id="swagger-ui" data-spec="/openapi.json" data-demo-key="${demoKey ?? ''}"></div>
</main>
<script src="/assets/swagger-ui/swagger-ui-bundle.js"></script>`,
    scripts: ['/assets/reference.js'],
  })
}
