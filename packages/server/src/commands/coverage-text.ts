/**
 * A coverage report as people read it (`mockpoint coverage` without `--json`):
 * a summary line, then each endpoint with its dead routes and the requests that
 * hit no route.
 *
 * @module
 */
import type { CoverageReport } from '@mockpoint/core';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The report as lines of text, ending in a newline. */
export function coverageText(report: CoverageReport): string {
  const { totals } = report;
  const window = [
    report.window.since === undefined ? undefined : `since ${report.window.since}`,
    report.window.until === undefined ? undefined : `until ${report.window.until}`,
  ].filter((part) => part !== undefined);
  const lines = [
    `mockpoint coverage: ${plural(report.requests, 'request')}${window.length === 0 ? '' : ` (${window.join(', ')})`}, ${plural(
      totals.routes,
      'route',
    )}: ${totals.dead} never hit, ${plural(totals.unmatched, 'request')} hit no route`,
  ];
  for (const endpoint of report.endpoints) {
    const hit = endpoint.routes.length - endpoint.dead.length;
    lines.push('', `${endpoint.name}: ${hit} of ${plural(endpoint.routes.length, 'route')} hit`);
    for (const route of endpoint.dead) lines.push(`  never hit: ${route.match}  (route ${route.id}, #${route.index})`);
    const { unmatched } = endpoint;
    if (unmatched.count > 0) {
      lines.push(
        `  ${plural(unmatched.count, 'request')} hit no route (${unmatched.byRecord} answered by the record, ${unmatched.unhandled} by nobody):`,
      );
      for (const request of unmatched.sample) {
        lines.push(`    ${request.method} ${request.subpath} → ${request.statusCode} (${request.answeredBy})`);
      }
      if (unmatched.count > unmatched.sample.length)
        lines.push(`    … and ${unmatched.count - unmatched.sample.length} more`);
    }
    if (endpoint.goneRouteHits > 0) {
      lines.push(`  ${plural(endpoint.goneRouteHits, 'request')} answered by routes it no longer has`);
    }
  }
  return `${lines.join('\n')}\n`;
}
