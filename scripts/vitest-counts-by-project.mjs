// @ts-check
// A vitest reporter for the consumer matrix (scripts/test-consumers.mjs): vitest's own JSON report
// does not say which project ran a file, and each project there is one environment of the matrix.

import { writeFileSync } from 'node:fs'

/** @typedef {{ passed: number, failed: number, skipped: number, durationMs: number }} ProjectCounts */

export default class CountsByProject {
  /**
   * Writes `{ [project]: ProjectCounts }` to the file named by CONSUMER_REPORT.
   * @param {ReadonlyArray<import('vitest/node').TestModule>} testModules
   */
  onTestRunEnd(testModules) {
    /** @type {Record<string, ProjectCounts>} */
    const byProject = {}
    for (const testModule of testModules) {
      byProject[testModule.project.name] ??= { passed: 0, failed: 0, skipped: 0, durationMs: 0 }
      const counts = byProject[testModule.project.name]
      // A file that fails to load has no tests to count, and must still fail its environment.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) counts.failed += 1
      for (const test of testModule.children.allTests()) {
        const { state } = test.result()
        if (state === 'passed') counts.passed += 1
        else if (state === 'failed') counts.failed += 1
        else counts.skipped += 1
      }
      const diagnostic = testModule.diagnostic()
      counts.durationMs +=
        diagnostic.environmentSetupDuration +
        diagnostic.prepareDuration +
        diagnostic.collectDuration +
        diagnostic.setupDuration +
        diagnostic.duration
    }
    const file = process.env.CONSUMER_REPORT
    if (file === undefined) throw new Error('CONSUMER_REPORT names no file for the counts')
    writeFileSync(file, JSON.stringify(byProject))
  }
}
