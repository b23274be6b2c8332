// Prints the run's totals as one plain line ("tests: N passed, N failed, N skipped") that any CI can read,
// and, when TEST_TIMES_FILE is set, writes each test file's run time there (one JSON line a file) for the
// table scripts/run-tests.sh prints at the end of the whole suite.
const fs = require("node:fs");
const path = require("node:path");

/** A failure message's first lines, colours and the stack's node_modules frames left out. */
function briefly(message) {
  const lines = message
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim() && !/node_modules|node:internal/.test(l));
  return lines.slice(0, 24).join("\n");
}

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.rows = [];
  }

  onTestResult(test, result) {
    const project = test.context.config.displayName?.name ?? "";
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    const failed = result.numFailingTests > 0 || result.testExecError != null;
    const tests = result.testResults.map((t) => ({ name: t.fullName, seconds: (t.duration ?? 0) / 1000 }));
    // Why each failing test failed, short: the end of a run's log is often all a CI page keeps.
    const failures = result.testResults
      .filter((t) => t.status === "failed")
      .map((t) => ({ name: t.fullName, message: briefly(t.failureMessages.join("\n")) }));
    if (result.testExecError != null)
      failures.push({
        name: "(the file did not run)",
        message: briefly(result.testExecError.message ?? String(result.testExecError)),
      });
    const counts = {
      passed: result.numPassingTests,
      failed: result.numFailingTests + (result.testExecError != null ? 1 : 0),
      skipped: result.numPendingTests + result.numTodoTests,
    };
    this.rows.push({
      project,
      file: path.relative(this.rootDir, result.testFilePath),
      seconds,
      failed,
      counts,
      tests,
      failures,
    });
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stdout.write(
      `tests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
    const out = process.env.TEST_TIMES_FILE;
    if (out) fs.writeFileSync(out, this.rows.map((r) => JSON.stringify(r)).join("\n") + (this.rows.length ? "\n" : ""));
  }
}
module.exports = SummaryReporter;
