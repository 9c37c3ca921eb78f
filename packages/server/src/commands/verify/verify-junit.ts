/**
 * A verify report as JUnit XML (`mockpoint verify --junit FILE`), the format CI
 * systems show as test results: one `<testsuite>` per endpoint, one
 * `<testcase>` per route, failing with one `<failure>` that holds all of the
 * route's findings (JUnit readers expect at most one per case: its `type` the
 * findings' codes, its text one line per finding), a route's notes as its
 * `<system-out>`. Findings past the cap are one more failing test case, so a
 * capped report never reads as passing.
 *
 * @module
 */
import type { VerifyEntry, VerifyFinding, VerifyNote, VerifyReport } from '@mockpoint/core';

/**
 * `text` made safe for XML text and attribute values: `& < > " '` escaped, and
 * the characters XML 1.0 cannot carry at all (most control characters, lone
 * surrogates, U+FFFE/U+FFFF) written as `\u{…}`, so any route text or body value gives a parseable file.
 */
export function xmlEscape(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '&') out += '&amp;';
    else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else if (char === '"') out += '&quot;';
    else if (char === "'") out += '&apos;';
    else if (
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
      (code >= 0xd800 && code <= 0xdfff) ||
      code === 0xfffe ||
      code === 0xffff
    ) {
      out += `\\u{${code.toString(16)}}`;
    } else out += char;
  }
  return out;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');
}

/** The key of a route (its endpoint and index), or of a recorded request (its endpoint and journal id). */
function key(endpoint: string, index: number): string {
  return `${endpoint}\u0000${index}`;
}

/** The key a finding or note is filed under: its recorded request's, else its route's. */
function keyOf(item: { endpoint: string; route?: { index: number }; entry?: VerifyEntry }): string {
  return item.entry === undefined
    ? key(item.endpoint, item.route?.index ?? -1)
    : `${item.endpoint}\u0000j${item.entry.id}`;
}

/** One test case: its name, failures and notes. */
function testCase(classname: string, name: string, own: VerifyFinding[], said: VerifyNote[]): string {
  const body =
    (own.length === 0 ? '' : failure(own)) +
    (said.length === 0 ? '' : `      <system-out>${xmlEscape(said.map((n) => n.note).join('\n'))}</system-out>\n`);
  return body === ''
    ? `    <testcase${attrs({ classname, name })}/>\n`
    : `    <testcase${attrs({ classname, name })}>\n${body}    </testcase>\n`;
}

/** The recorded requests of `endpoint` that have findings or notes, in the order first met. */
function entriesOf(report: VerifyReport, endpoint: string): VerifyEntry[] {
  const seen = new Map<number, VerifyEntry>();
  for (const item of [...report.findings, ...report.notes]) {
    if (item.endpoint === endpoint && item.entry !== undefined && !seen.has(item.entry.id))
      seen.set(item.entry.id, item.entry);
  }
  return [...seen.values()];
}

/** A test case's one failure: its findings' codes as its type, their messages as its message and, a line each, its text. */
function failure(own: readonly VerifyFinding[]): string {
  const type = [...new Set(own.map((finding) => finding.code))].join(' ');
  const message =
    own.length === 1
      ? (own[0] as VerifyFinding).message
      : `${own.length} findings: ${own.map((f) => f.message).join('; ')}`;
  const detail = own.map((f) => f.message).join('\n');
  return `      <failure${attrs({ type, message })}>${xmlEscape(detail)}</failure>\n`;
}

/** The report as a JUnit XML document. */
export function junitXml(report: VerifyReport): string {
  const findings = new Map<string, VerifyFinding[]>();
  for (const finding of report.findings) {
    const at = keyOf(finding);
    findings.set(at, [...(findings.get(at) ?? []), finding]);
  }
  const notes = new Map<string, VerifyNote[]>();
  for (const note of report.notes) {
    const at = keyOf(note);
    notes.set(at, [...(notes.get(at) ?? []), note]);
  }
  let suites = '';
  let tests = 0;
  let failures = 0;
  for (const endpoint of report.endpoints) {
    let cases = '';
    let suiteFailures = 0;
    const named: [string, string][] = endpoint.routes.map((route) => [
      key(endpoint.name, route.index),
      `${route.operation} (route ${route.id}, #${route.index})`,
    ]);
    for (const entry of entriesOf(report, endpoint.name)) {
      named.push([
        `${endpoint.name}\u0000j${entry.id}`,
        `journal #${entry.id} ${entry.method} ${entry.path} (${entry.receivedAt})`,
      ]);
    }
    for (const [at, name] of named) {
      const own = findings.get(at) ?? [];
      if (own.length > 0) suiteFailures++;
      cases += testCase(endpoint.name, name, own, notes.get(at) ?? []);
    }
    tests += named.length;
    failures += suiteFailures;
    suites += `  <testsuite${attrs({ name: endpoint.name, tests: named.length, failures: suiteFailures, errors: 0 })}>\n${cases}  </testsuite>\n`;
  }
  if (report.moreFindings > 0) {
    tests += 1;
    failures += 1;
    const message = `${report.moreFindings} more finding(s), past the report's cap, not listed`;
    suites += `  <testsuite${attrs({ name: '(more findings)', tests: 1, failures: 1, errors: 0 })}>\n    <testcase${attrs({ classname: '(more findings)', name: 'findings past the cap' })}>\n      <failure${attrs({ type: 'MORE_FINDINGS', message })}/>\n    </testcase>\n  </testsuite>\n`;
  }
  const against =
    report.document === undefined ? (report.upstream ?? '') : `${report.document.title} ${report.document.version}`;
  const title = `mockpoint verify: ${against}`.trim();
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: title, tests, failures, errors: 0 })}>\n${suites}</testsuites>\n`;
}
