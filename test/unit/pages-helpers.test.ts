import { expect, it } from 'vitest'
import { escapeHtml, html } from '../../src/node/pages/html.js'
import { acceptsGzip } from '../../src/node/pages/accepts-gzip.js'
import { prefersJson } from '../../src/node/pages/prefers-json.js'

it('escapes every value of a template, unless it is already markup', () => {
  const name = `<img src=x onerror=alert(1)>"'&`
  expect(html`<td title="${name}">${name}</td>`.markup).toBe(
    '<td title="&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;">&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;</td>',
  )
  expect(html`<ul>${['<a>', html`<li>${'<b>'}</li>`]}</ul>`.markup).toBe('<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>')
  expect(escapeHtml('plain text')).toBe('plain text')
})

it.each([
  ['application/json', true],
  ['application/problem+json', true],
  ['application/json;q=0.9, text/plain', true],
  ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
  ['text/html, application/json', false],
  ['*/*', false],
  [undefined, false],
])('Accept %s asks for JSON: %s', (accept, expected) => {
  expect(prefersJson(accept)).toBe(expected)
})

it.each([
  ['gzip, deflate, br', true],
  ['br;q=1.0, gzip;q=0.8', true],
  ['*', true],
  ['gzip;q=0, identity', false],
  ['gzip;q=0.0', false],
  ['br', false],
  [undefined, false],
])('Accept-Encoding %s takes gzip: %s', (header, expected) => {
  expect(acceptsGzip(header)).toBe(expected)
})
