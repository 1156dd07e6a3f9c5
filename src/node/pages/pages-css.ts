/** The stylesheet of the sandbox's own pages (/assets/pages.css); system fonts, nothing fetched. */
export const pagesCss = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5260; --line: #d0d5dc; --bg: #f6f7f9; --accent: #0b5cad; --ok: #1a7f37; --warn: #9a6700; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--bg); padding: 1px 4px; border-radius: 3px; overflow-wrap: anywhere; }
.bar { background: #14213d; color: #fff; padding: 10px 20px; }
.bar h1 { margin: 0; font-size: 20px; }
.bar a { color: #fff; }
.bar .crumbs { margin: 0; }
.version { font-weight: normal; opacity: .85; font-size: 15px; }
main { padding: 16px 20px; max-width: 1200px; margin: 0 auto; }
.door { max-width: 860px; }
.in-force { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.in-force dt { color: var(--muted); }
.in-force dd { margin: 0; }
main:not(.reference) h2 { font-size: 17px; margin: 20px 0 8px; }
main:not(.reference) table { border-collapse: collapse; width: 100%; }
main:not(.reference) :is(th, td) { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
main:not(.reference) th { font-size: 13px; color: var(--muted); font-weight: 600; }
.links li { margin: 4px 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.table-scroll { overflow-x: auto; }
/* Narrow screens scroll a table sideways rather than squeeze its columns unreadable. */
.table-scroll table { min-width: 640px; }
/* Controls are styled inside cards only: the reference page's controls are Swagger UI's own. */
.card button, .card input, .card select { font: inherit; }
.card button { border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 4px; padding: 4px 10px; cursor: pointer; }
.card button.secondary { background: #fff; color: var(--accent); }
/* A path in the request list that opens its exchange: a button that reads as the path it is. */
.card button.link { background: none; border: 0; padding: 0; color: var(--accent); text-decoration: underline; cursor: pointer; text-align: left; }
/* The session the board shows, marked in the sessions' table. */
#sessions-table tr.picked { background: #eef4fb; font-weight: 600; }
#exchange pre { white-space: pre-wrap; word-break: break-all; max-height: 24em; overflow: auto; border: 1px solid var(--line); padding: 8px; font-size: 13px; }
a:focus-visible, .card button:focus-visible, .card input:focus-visible, .card select:focus-visible { outline: 3px solid #f0b400; outline-offset: 1px; }
.card input, .card select { border: 1px solid #8a93a0; border-radius: 4px; padding: 3px 6px; background: #fff; color: var(--ink); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; background: #fff; min-width: 0; }
.card h2 { margin-top: 0; }
main > form.card, #board > .card, #board > .grid { margin-top: 16px; }
.card input[type=number] { width: 7em; }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
.meter { display: flex; align-items: center; gap: 6px; font-size: 13px; }
.meter progress { width: 110px; height: 10px; }
.meter-caption { display: none; }
.meter-figures { white-space: nowrap; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 32px; margin: 0 0 8px; }
.facts dt { font-size: 13px; color: var(--muted); font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
#proxy h3 { font-size: 15px; margin: 14px 0 6px; }
/* The last example is long text: it wraps in its cell rather than widening the table. */
.table-scroll :is(#violations-table, #differences-table) { min-width: 0; }
:is(#violations-table, #differences-table) td { overflow-wrap: anywhere; }
:is(#violations-table, #differences-table) code { overflow-wrap: normal; }
.status-2 { color: var(--ok); } .status-4 { color: var(--warn); } .status-5, .status-0 { color: var(--bad); }
.muted { color: var(--muted); }
#log-table td { font-size: 13px; }
.chart { display: block; width: 100%; height: 90px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); }
.legend span { margin-right: 12px; font-size: 13px; }
.notice { padding: 8px 12px; border-radius: 4px; background: #fff4e5; border: 1px solid #e7b66b; }
/* Swagger UI's own colours fall short of WCAG AA contrast in places; these darken them (axe-core checks it). */
main.reference .swagger-ui .info .title small { background: #4a5260; }
main.reference .swagger-ui .info .title small.version-stamp { background: #2f6200; }
main.reference .swagger-ui .info a.link, main.reference .swagger-ui .info .url { color: #0b5cad; }
main.reference .swagger-ui .btn.authorize { color: #1a7f37; border-color: #1a7f37; }
main.reference .swagger-ui .btn.authorize svg { fill: #1a7f37; }
main.reference .swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0b5cad; }
main.reference .swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1a7f37; }
main.reference .swagger-ui .opblock.opblock-deprecated { opacity: 1; }
main.reference .swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #4a5260; }
main.reference .swagger-ui .opblock-deprecated .opblock-summary-path__deprecated span, main.reference .swagger-ui .opblock-deprecated .opblock-summary-description { color: #4a5260; }
main.reference .swagger-ui .json-schema-2020-12-expand-deep-button { color: #4a5260; }
@media (max-width: 600px) {
  /* Each key becomes a block of its own on a phone: its controls need the whole width. */
  #keys-table { min-width: 0; }
  #keys-table thead { display: none; }
  #keys-table tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 0; }
  #keys-table td { display: block; border: 0; padding: 2px 0; }
  /* So does each broken promise of the proxy: its example needs the width more than a column does. */
  :is(#violations-table, #differences-table) thead { display: none; }
  :is(#violations-table, #differences-table) tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 0; }
  :is(#violations-table, #differences-table) td { display: block; border: 0; padding: 2px 0; }
  /* With the column headers gone, each bar and figure says what it is itself. */
  #keys-table .meter-caption { display: inline-block; min-width: 3.5em; color: var(--muted); }
  :is(#keys-table, #violations-table, #differences-table) td[data-caption]::before { content: attr(data-caption); display: inline-block; min-width: 3.5em; margin-right: 6px; font-size: 13px; color: var(--muted); }
}
@media (max-width: 600px) { main { padding: 12px; } .bar { padding: 10px 12px; } main:not(.reference) :is(th, td) { padding: 4px; } .card input[type=number] { width: 5em; } }
`
