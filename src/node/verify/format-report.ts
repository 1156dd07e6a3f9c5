import type { ShadowReport } from '../../core/admin/admin-controls.js'
import { describeSource } from './promises.js'
import type { PromiseOutcome, VerifyReport } from './report.js'

const MARKS = { passed: '✓', failed: '✗', warned: '!', skipped: '-' }
const COLOURS = { passed: '\u001b[32m', failed: '\u001b[31m', warned: '\u001b[33m', skipped: '\u001b[2m' }
const NO_PATTERN =
  'none of the patterns verify looks for ' +
  '(no state, any key accepted, no rate limiting, errors in another format, a different base path)'

/** Formats the report for a terminal. */
export function formatTerminalReport(report: VerifyReport, colour: boolean): string {
  const lines = [
    `Verified ${report.baseUrl} with key ${report.key}${report.strict ? ' (--strict)' : ''}`,
    '',
    'Diagnosis:',
  ]
  for (const line of report.diagnosis.length > 0 ? report.diagnosis : [NO_PATTERN]) lines.push(`  ${line}`)
  const section = (title: string, promises: PromiseOutcome[]) => {
    lines.push('', title)
    for (const promise of promises) {
      const mark = colour ? `${COLOURS[promise.outcome]}${MARKS[promise.outcome]}\u001b[0m` : MARKS[promise.outcome]
      lines.push(`${mark} ${promise.id} (${describeSource(promise.source)}): ${promise.title}`)
      if (promise.reason !== undefined) lines.push(`    skipped: ${promise.reason}`)
      if (promise.outcome === 'warned') lines.push(`    ${warningLine(promise)}`)
      for (const failure of promise.failures) {
        lines.push(
          `    request:  ${failure.request}`,
          `    got:      ${failure.got}`,
          `    expected: ${failure.expected}`,
        )
      }
      if (promise.failureCount > promise.failures.length) lines.push(`    (${promise.failureCount} failures in all)`)
    }
  }
  section(
    "The spec's promises:",
    report.promises.filter((promise) => promise.source.kind === 'seed'),
  )
  section(
    `The sandbox's decisions, where the spec is silent (${decisionsAre(report)}):`,
    report.promises.filter((promise) => promise.source.kind === 'decision'),
  )
  const seconds = (report.durationMs / 1000).toFixed(1)
  lines.push('', `${tally(report)}; ${report.requests} requests in ${seconds} s`)
  return lines.join('\n')
}

/** Formats the report as JUnit XML, a case per promise; a warning passes with a property, JUnit having none. */
export function formatJunitReport(report: VerifyReport): string {
  const cases = report.promises.map((promise) => {
    const properties = [`        <property name="source" value="${xml(describeSource(promise.source))}"/>`]
    if (promise.outcome === 'warned')
      properties.push(`        <property name="warning" value="${xml(warningLine(promise))}"/>`)
    const parts = [
      `    <testcase classname="petstore-sandbox.verify" name="${xml(promise.id)}" time="0">`,
      '      <properties>',
      ...properties,
      '      </properties>',
    ]
    if (promise.outcome === 'skipped') parts.push(`      <skipped message="${xml(promise.reason ?? '')}"/>`)
    if (promise.outcome === 'failed') {
      const message = xml(`${promise.title}: ${promise.failures[0]?.expected ?? ''}`)
      parts.push(`      <failure message="${message}">${xml(failureText(promise))}</failure>`)
    }
    if (promise.outcome === 'warned') parts.push(`      <system-out>${xml(failureText(promise))}</system-out>`)
    return [...parts, '    </testcase>'].join('\n')
  })
  const counts = `tests="${report.promises.length}" failures="${report.failed}" skipped="${report.skipped}" errors="0"`
  const time = report.durationMs / 1000
  const suiteProperties = [
    `      <property name="strict" value="${report.strict}"/>`,
    `      <property name="warnings" value="${report.warned}"/>`,
    ...report.diagnosis.map((line) => `      <property name="diagnosis" value="${xml(line)}"/>`),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-sandbox verify" ${counts} time="${time}">`,
    `  <testsuite name="${xml(report.baseUrl)}" ${counts} timestamp="${report.startedAt}" time="${time}">`,
    '    <properties>',
    ...suiteProperties,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n')
}

/** Formats the report as one HTML page; a backend's text is escaped and the page runs no script (its CSP). */
export function formatHtmlReport(report: VerifyReport): string {
  const promiseRows = (promises: PromiseOutcome[]) =>
    promises
      .map((promise) => {
        const details = promise.failures
          .map(
            (failure) =>
              `<dl><dt>request</dt><dd><code>${html(failure.request)}</code></dd>` +
              `<dt>got</dt><dd><code>${html(failure.got)}</code></dd>` +
              `<dt>expected</dt><dd>${html(failure.expected)}</dd></dl>`,
          )
          .join('')
        const more =
          promise.failureCount > promise.failures.length ? `<p>${promise.failureCount} failures in all</p>` : ''
        const reason = promise.reason === undefined ? '' : `<p>skipped: ${html(promise.reason)}</p>`
        const warning = promise.outcome === 'warned' ? `<p>${html(warningLine(promise))}</p>` : ''
        return (
          `<tr class="${promise.outcome}"><td>${MARKS[promise.outcome]} ${promise.outcome}</td>` +
          `<td><code>${html(promise.id)}</code></td><td>${html(describeSource(promise.source))}</td>` +
          `<td>${html(promise.title)}${reason}${warning}${details}${more}</td></tr>`
        )
      })
      .join('\n')
  const head = headRow(['outcome', 'promise', 'source', 'what the backend must do'])
  const table = (caption: string, promises: PromiseOutcome[]) =>
    `<table><caption>${html(caption)}</caption>${head}<tbody>\n${promiseRows(promises)}\n</tbody></table>`
  const diagnosis = (report.diagnosis.length > 0 ? report.diagnosis : [NO_PATTERN])
    .map((line) => `<li>${html(line)}</li>`)
    .join('')
  const seconds = (report.durationMs / 1000).toFixed(1)
  const strict = report.strict ? ', --strict' : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>petstore-sandbox verify: ${html(report.baseUrl)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem; color: #1b1b1b; }
table { border-collapse: collapse; width: 100%; margin: 1.5rem 0; }
caption { text-align: left; font-weight: 600; margin-bottom: .5rem; }
th, td { border: 1px solid #ccc; padding: .4rem .6rem; text-align: left; vertical-align: top; }
code { overflow-wrap: anywhere; }
td:nth-child(2) code { white-space: nowrap; }
dl { margin: .5rem 0 0; display: grid; grid-template-columns: max-content 1fr; gap: .1rem .6rem; }
dt { font-weight: 600; } dd { margin: 0; }
.passed td:first-child { color: #176117; } .failed td:first-child { color: #a11313; font-weight: 600; }
.warned td:first-child { color: #7a5200; font-weight: 600; } .skipped td:first-child { color: #555; }
</style>
</head>
<body>
<h1>verify: ${html(report.baseUrl)}</h1>
<p>Key ${html(report.key)}, started ${html(report.startedAt)}, ${report.requests} requests in ${seconds} s${strict}.
<strong>${tally(report)}.</strong></p>
<h2>Diagnosis</h2>
<ul>${diagnosis}</ul>
${table(
  "The spec's promises (seed: the specification's own words, by section)",
  report.promises.filter((promise) => promise.source.kind === 'seed'),
)}
${table(
  `The sandbox's decisions where the spec is silent (docs/decisions.md): ${decisionsAre(report)}`,
  report.promises.filter((promise) => promise.source.kind === 'decision'),
)}
</body>
</html>
`
}

/** Words a warned promise in one line: "D3: the sandbox answers 400 for limit=0; this backend 422". */
function warningLine(promise: PromiseOutcome): string {
  const first = promise.failures[0]
  if (first === undefined) return `${describeSource(promise.source)}: this backend differs from the sandbox`
  const named = /^(D\d+): (.*)$/.exec(first.expected)
  if (named !== null)
    return `${named[1]}: the sandbox's contract says ${named[2]}; this backend differs, as shown below`
  const differs = /^\d{3}\b/.test(first.expected)
    ? `this backend ${first.got.split(' | ')[0]}`
    : 'this backend differs, as shown below'
  return `${describeSource(promise.source)}: the sandbox answers ${first.expected}; ${differs}`
}

/** Counts the promises by outcome. */
function tally(report: VerifyReport): string {
  return `${report.passed} passed, ${report.failed} failed, ${report.warned} warned, ${report.skipped} skipped`
}

/** Says what the sandbox's decisions are under the report's strictness. */
function decisionsAre(report: VerifyReport): string {
  return report.strict ? 'failures under --strict' : 'warnings; --strict makes them failures'
}

/** Writes a table's head row of the given column titles. */
function headRow(titles: string[]): string {
  return `<thead><tr>${titles.map((title) => `<th>${title}</th>`).join('')}</tr></thead>`
}

function failureText(promise: PromiseOutcome): string {
  return promise.failures
    .map((failure) => `request:  ${failure.request}\ngot:      ${failure.got}\nexpected: ${failure.expected}`)
    .join('\n\n')
}

function xml(text: string): string {
  // XML 1.0 cannot escape control characters but tab and line ends.
  const printable = [...text].filter((char) => char >= ' ' || char === '\t' || char === '\n' || char === '\r').join('')
  return printable.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function html(text: string): string {
  // HTML, like XML, reads &#NN; in text and attribute values.
  return xml(text)
}

/** Writes the drift report of `proxy --shadow` (D42) as a page in verify's HTML style (`--shadow-report`). */
export function formatShadowHtml(report: ShadowReport): string {
  const order = { behaviour: 0, spec: 1, decision: 2 } as const
  const rows = [...report.differences]
    .sort((a, b) => order[a.kind] - order[b.kind] || b.count - a.count)
    .map((group) => {
      const decision = group.decision === undefined ? '' : ` (${html(group.decision)})`
      const { example } = group
      const key = example.key === undefined ? '' : `, key ${html(example.key)}`
      return (
        `<tr class="${group.kind}"><td>${group.kind}${decision}</td><td><code>${html(group.operation)}</code></td>` +
        `<td><code>${html(group.aspect)}</code></td><td>${group.count}</td>` +
        `<td><code>${html(group.upstream)}</code></td><td><code>${html(group.sandbox)}</code></td>` +
        `<td><code>${html(`${example.method} ${example.path}`)}</code> ` +
        `${example.upstreamStatus} / ${example.sandboxStatus}${key}, ${html(example.time)}</td></tr>`
      )
    })
    .join('\n')
  const behaviour = report.differences.filter((group) => group.kind === 'behaviour').length
  const beyond = report.unlisted > 0 ? `, ${report.unlisted} differences beyond the groups shown` : ''
  const head = headRow(['kind', 'operation', 'aspect', 'count', 'upstream', 'sandbox', 'example'])
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>petstore-sandbox shadow: drift report</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem; color: #1b1b1b; }
table { border-collapse: collapse; width: 100%; margin: 1.5rem 0; }
th, td { border: 1px solid #ccc; padding: .4rem .6rem; text-align: left; vertical-align: top; }
code { overflow-wrap: anywhere; }
.behaviour td:first-child { color: #a11313; font-weight: 600; } .spec td:first-child { color: #7a5200; font-weight: 600; }
.decision td:first-child { color: #555; }
</style>
</head>
<body>
<h1>shadow: drift report</h1>
<p>${report.exchanges} exchanges, ${report.compared} compared, ${report.dropped} dropped${beyond}.
<strong>${report.differences.length} groups of differences, ${behaviour} of behaviour.</strong></p>
<table>${head}<tbody>
${rows}
</tbody></table>
</body>
</html>
`
}
