/**
 * `mockpoint coverage [--names a,b] [--since ISO] [--until ISO] [--json]
 * [--fail-on-dead]`: a running daemon's coverage (`GET /api/coverage`, docs/coverage.md):
 * each route's hits, the routes never hit and the requests that hit no route.
 * Exit 0; 1 with `--fail-on-dead` when a route was never hit; 2 when it could
 * not tell (a bad argument, no daemon).
 *
 * @module
 */
import type { CoverageQuery, CoverageReport } from '@mockpoint/core';
import { isOwnError } from '@mockpoint/core/internal';
import { type CommandIo, commaList, DAEMON_OPTIONS, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { coverageText } from './coverage-text.js';
import { daemonClient } from './daemon-client.js';

export const COVERAGE_HELP = `Usage: mockpoint coverage [options]

Prints a running daemon's coverage (docs/coverage.md): per endpoint, each route's hits over the
requests its journal kept, the routes never hit (dead mocks) and the requests that hit no route
(answered by the record, or by nobody). Exits 0; 1 with --fail-on-dead when a route was never hit;
2 when it could not tell.

${optionsHelp(
  `
--names <a,b>    | only these endpoints (default: every endpoint with routes or requests)
--since <time>   | only requests received at or after this ISO 8601 time
--until <time>   | only requests received before this ISO 8601 time
--json           | print the report as JSON instead
--fail-on-dead   | exit 1 when a route was never hit
`,
  DAEMON_OPTIONS,
)}`;

export async function runCoverage(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('coverage', argv, {
    values: ['--url', '--token', '--names', '--since', '--until'],
    switches: ['--json', '--fail-on-dead'],
  });
  if (args.help) {
    io.out(COVERAGE_HELP);
    return 0;
  }
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument "${args.positionals[0]}"; give endpoint names with --names a,b`);
  }
  const query: CoverageQuery = {};
  const names = commaList(args.values.get('--names'));
  if (names !== undefined) query.names = names;
  const since = args.values.get('--since');
  if (since !== undefined) query.since = since;
  const until = args.values.get('--until');
  if (until !== undefined) query.until = until;
  const client = daemonClient(args, env);
  let report: CoverageReport;
  try {
    report = await client.coverage(query);
  } catch (error) {
    // Could not tell (a bad time, no daemon): exit 2, not the 1 of dead routes.
    if (isOwnError(error)) throw new UsageError(error.message);
    throw error;
  }
  io.out(args.switches.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : coverageText(report));
  return args.switches.has('--fail-on-dead') && report.totals.dead > 0 ? 1 : 0;
}
