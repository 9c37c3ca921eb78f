/**
 * A verify report as people read it (`mockpoint verify` without `--json`): a
 * summary line, then each endpoint's findings under its route, then the notes
 * (what was not checked, and why).
 *
 * @module
 */
import type { VerifyEntry, VerifyReport } from '@mockpoint/core';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Who a finding or note is about: `route pet, #0`, or `journal #12 at 2026-…, route pet`. */
function whose(item: { route?: { id: string; index: number }; entry?: VerifyEntry }): string {
  const route = item.route === undefined ? undefined : `route ${item.route.id}, #${item.route.index}`;
  if (item.entry === undefined) return route ?? 'no route';
  const entry = `journal #${item.entry.id} at ${item.entry.receivedAt}`;
  return route === undefined ? `${entry}, answered by no route` : `${entry}, ${route}`;
}

/** The report as lines of text, ending in a newline. */
export function verifyText(report: VerifyReport): string {
  const { document, checked } = report;
  const against = [
    document === undefined
      ? undefined
      : `${document.title || 'the document'} ${document.version} (OpenAPI ${document.openapi})`.replace(/\s+/g, ' '),
    report.upstream,
  ]
    .filter((part) => part !== undefined)
    .join(' and ');
  const total = report.findings.length + report.moreFindings;
  const extra = [
    checked.requests === undefined ? undefined : `${plural(checked.requests, 'recorded request')} checked`,
    checked.replayed === undefined ? undefined : `${plural(checked.replayed, 'route')} replayed`,
    checked.unreached ? `${checked.unreached} not reached` : undefined,
  ].filter((part) => part !== undefined);
  const lines = [
    `mockpoint verify: ${plural(checked.routes, 'route')} of ${plural(checked.endpoints, 'endpoint')} against ${against}${
      extra.length === 0 ? '' : ` (${extra.join(', ')})`
    }: ${total === 0 ? 'no drift' : plural(total, 'finding')}`,
  ];
  let endpoint: string | undefined;
  let heading: string | undefined;
  for (const finding of report.findings) {
    if (finding.endpoint !== endpoint) {
      lines.push('', `${finding.endpoint}`);
      endpoint = finding.endpoint;
      heading = undefined;
    }
    const own = `  ${finding.operation}  (${whose(finding)})`;
    if (own !== heading) {
      lines.push(own);
      heading = own;
    }
    lines.push(`    ${finding.code} at ${finding.path}: expected ${finding.expected}; found ${finding.found}`);
  }
  if (report.moreFindings > 0) lines.push('', `… and ${plural(report.moreFindings, 'more finding')}, not listed`);
  if (report.notes.length > 0) {
    lines.push('', 'Not checked:');
    for (const note of report.notes) {
      const about =
        note.entry === undefined && note.route !== undefined
          ? `route ${note.route.id} (#${note.route.index})`
          : whose(note);
      lines.push(`  ${note.endpoint} ${about}: ${note.note}`);
    }
    if (report.moreNotes > 0) lines.push(`  … and ${plural(report.moreNotes, 'more note')}`);
  }
  return `${lines.join('\n')}\n`;
}
