/**
 * A verify report as people read it (`mockpoint verify` without `--json`): a
 * summary line, then each endpoint's findings under its route, then the notes
 * (what was not checked, and why).
 *
 * @module
 */
import type { VerifyReport } from '@mockpoint/core';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The report as lines of text, ending in a newline. */
export function verifyText(report: VerifyReport): string {
  const { document, checked } = report;
  const against = `${document.title || 'the document'} ${document.version} (OpenAPI ${document.openapi})`.replace(
    /\s+/g,
    ' ',
  );
  const total = report.findings.length + report.moreFindings;
  const lines = [
    `mockpoint verify: ${plural(checked.routes, 'route')} of ${plural(checked.endpoints, 'endpoint')} against ${against}: ${
      total === 0 ? 'no drift' : plural(total, 'finding')
    }`,
  ];
  let endpoint: string | undefined;
  let route: number | undefined;
  for (const finding of report.findings) {
    if (finding.endpoint !== endpoint) {
      lines.push('', `${finding.endpoint}`);
      endpoint = finding.endpoint;
      route = undefined;
    }
    if (finding.route.index !== route) {
      lines.push(`  ${finding.operation}  (route ${finding.route.id}, #${finding.route.index})`);
      route = finding.route.index;
    }
    lines.push(`    ${finding.code} at ${finding.path}: expected ${finding.expected}; found ${finding.found}`);
  }
  if (report.moreFindings > 0) lines.push('', `… and ${plural(report.moreFindings, 'more finding')}, not listed`);
  if (report.notes.length > 0) {
    lines.push('', 'Not checked:');
    for (const note of report.notes) {
      lines.push(`  ${note.endpoint} route ${note.route.id} (#${note.route.index}): ${note.note}`);
    }
    if (report.moreNotes > 0) lines.push(`  … and ${plural(report.moreNotes, 'more note')}`);
  }
  return `${lines.join('\n')}\n`;
}
