#!/usr/bin/env node
// Prints what failed in a saved `npm test` log: each workspace runs to its end even after another
// failed, so a failure's report scrolls far above the last lines of the output, which are often
// all a reader of CI has. This gathers, in order: every failed test file and test, vitest's
// "Failed Tests" and "Unhandled Errors" reports (each cut to its first lines), node:test's
// "not ok" lines, and the workspaces npm names as failed.
//
// Usage: node .ci/failures.mjs <log>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** Lines kept of each failure's report, so that one long stack cannot hide the next failure. */
const REPORT_LINES = 40;
/** The whole summary's limit. */
const TOTAL_LINES = 300;

/** The rulers that open vitest's reports: "⎯⎯⎯ Failed Tests 2 ⎯⎯⎯", "⎯⎯⎯ Unhandled Errors ⎯⎯⎯". */
const REPORT_START = /⎯+ (Failed Tests|Unhandled Errors?|Failed Suites)\b/;
/** vitest's ruler after each failure ("⎯⎯⎯[1/2]⎯"): the next one's report starts after it. */
const NEXT_FAILURE = /⎯\[\d+\/\d+\]⎯/;
/** A failed test's name at the head of its report: kept however long the one before it was. */
const FAILURE_HEAD = /^\s*FAIL\s/;
/** What ends a report: the run's summary. */
const REPORT_END = /^\s*(Test Files|Tests|Errors)\s/;
const FAILED_LINE = [
  /^\s*(FAIL|❯)\s.*(failed|\.test\.)/, // vitest: a failed file (❯ file (n tests | k failed)), or FAIL file > test
  /^\s*×\s/, // vitest: a failed test
  /^\s*(Test Files|Tests|Errors)\s.*(failed|error)/i, // vitest's summary when something failed
  /^not ok\s/, // node:test
  /^npm error (workspace|command|path)\s/, // npm: which workspace's script failed
];

/** The summary of a test log's failures; empty when it names none. */
export function failuresIn(log) {
  const lines = stripVTControlCharacters(log).split('\n');
  const out = [];
  let inReport = false;
  let reportLines = 0;
  for (const line of lines) {
    if (REPORT_START.test(line)) {
      inReport = true;
      reportLines = 0;
    } else if (inReport && REPORT_END.test(line)) {
      inReport = false;
    }
    if (inReport) {
      if (FAILURE_HEAD.test(line)) reportLines = 0;
      if (reportLines < REPORT_LINES) out.push(line);
      else if (reportLines === REPORT_LINES) out.push('  …');
      reportLines = NEXT_FAILURE.test(line) ? 0 : reportLines + 1;
      continue;
    }
    if (FAILED_LINE.some((pattern) => pattern.test(line))) out.push(line);
  }
  const trimmed = out.filter((line, i) => line.trim() !== '' || (i > 0 && out[i - 1].trim() !== ''));
  return trimmed.length > TOTAL_LINES ? [...trimmed.slice(0, TOTAL_LINES), `… ${trimmed.length - TOTAL_LINES} more lines in the log`] : trimmed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node .ci/failures.mjs <log>');
    process.exit(2);
  }
  const summary = failuresIn(readFileSync(file, 'utf8'));
  console.log(summary.length > 0 ? summary.join('\n') : '(the log names no failed test: see it whole)');
}
