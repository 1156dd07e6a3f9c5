import type { FrontDoor } from './front-door.js'
import { html, type SafeHtml, tableHead } from './html.js'
import { pageShell } from './page-shell.js'

/** Builds the front door: what the sandbox is, where the API is, the keys to try, what is in force. */
export function frontDoorPage(door: FrontDoor): SafeHtml {
  const keys = door.demoKeys
  const keyRows = keys?.map(
    ({ plan, key, perMinute, perDay }) =>
      html`<tr><td>${plan}</td><td><code>${key}</code></td><td>${perMinute}</td><td>${perDay}</td></tr>`,
  )
  const inForce = door.inForce.map((line) => html`<dt>${line.label}</dt><dd data-item="${line.item}">${line.text}</dd>`)
  const links = Object.values(door.links).map(
    (link) => html`<li><a href="${link.href}">${link.title}</a> <code>${link.href}</code></li>`,
  )
  return pageShell({
    title: `${door.name} ${door.version}`,
    body: html`<header class="bar"><h1>${door.name} <span class="version">${door.version}</span></h1></header>
<main class="door">
<p>${door.description}</p>
<section aria-labelledby="base">
<h2 id="base">Base URL</h2>
<p><code id="base-url">${door.baseUrl}</code></p>
</section>
${
  keys === undefined
    ? html`<p>Keys come from the keys file; ask whoever runs this sandbox for one.</p>`
    : html`<section aria-labelledby="keys">
<h2 id="keys">Demo keys</h2>
<p>Send <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<table class="keys">${tableHead(['plan', 'key', 'per minute', 'per day'])}
<tbody>${keyRows}</tbody></table>
<p>Try: <code>curl -H 'Authorization: Bearer ${keys[0]?.key ?? '<key>'}' ${door.baseUrl}/pets?limit=3</code></p>
</section>`
}
<section aria-labelledby="in-force">
<h2 id="in-force">In force</h2>
<dl class="in-force">${inForce}</dl>
</section>
<section aria-labelledby="links">
<h2 id="links">Links</h2>
<ul class="links">${links}</ul>
</section>
</main>`,
  })
}
