import type { VerifyReport } from './verify-report.js'

const MARKS = { passed: '✓', failed: '✗', skipped: '-' }
const COLOURS = { passed: '\u001b[32m', failed: '\u001b[31m', skipped: '\u001b[33m' }

/** The report as a reader on a terminal sees it: one line per promise, each failure's request, answer and expectation below it. */
export function formatTerminalReport(report: VerifyReport, colour: boolean): string {
  const lines = [`Verified ${report.baseUrl} with key ${report.key}`, '']
  for (const promise of report.promises) {
    const mark = colour ? `${COLOURS[promise.outcome]}${MARKS[promise.outcome]}\u001b[0m` : MARKS[promise.outcome]
    lines.push(`${mark} ${promise.id}: ${promise.title}`)
    if (promise.reason !== undefined) lines.push(`    skipped: ${promise.reason}`)
    for (const failure of promise.failures) {
      lines.push(`    request:  ${failure.request}`, `    got:      ${failure.got}`, `    expected: ${failure.expected}`)
    }
    if (promise.failureCount > promise.failures.length) lines.push(`    (${promise.failureCount} failures in all)`)
  }
  const seconds = (report.durationMs / 1000).toFixed(1)
  lines.push('', `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped; ${report.requests} requests in ${seconds} s`)
  return lines.join('\n')
}
