import type { VerifyReport } from './verify-report.js'

/** The report as JUnit XML, one test case per promise, for CI systems that show test results. */
export function formatJunitReport(report: VerifyReport): string {
  const cases = report.promises.map((promise) => {
    const open = `    <testcase classname="petstore-sandbox.verify" name="${xml(promise.id)}" time="0">`
    if (promise.outcome === 'passed') return `${open}</testcase>`
    if (promise.outcome === 'skipped') return `${open}\n      <skipped message="${xml(promise.reason ?? '')}"/>\n    </testcase>`
    const text = promise.failures.map((failure) => `request:  ${failure.request}\ngot:      ${failure.got}\nexpected: ${failure.expected}`).join('\n\n')
    return `${open}\n      <failure message="${xml(`${promise.title}: ${promise.failures[0]?.expected ?? ''}`)}">${xml(text)}</failure>\n    </testcase>`
  })
  const counts = `tests="${report.promises.length}" failures="${report.failed}" skipped="${report.skipped}" errors="0"`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-sandbox verify" ${counts} time="${report.durationMs / 1000}">`,
    `  <testsuite name="${xml(report.baseUrl)}" ${counts} timestamp="${report.startedAt}" time="${report.durationMs / 1000}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n')
}

function xml(text: string): string {
  // XML 1.0 has no escape for control characters other than tab and line ends: they are dropped.
  const printable = [...text].filter((char) => char >= ' ' || char === '\t' || char === '\n' || char === '\r').join('')
  return printable.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
