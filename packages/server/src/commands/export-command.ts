/**
 * `mockpoint export [--names a,b] [--out FILE]`: a running daemon's endpoints
 * as a mock file (JSON, every `data` exact), so export → reset → apply answers
 * the same bytes.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { exportMockFile } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, parseArgs } from './command-args.js';

export const EXPORT_HELP = `Usage: mockpoint export [options] > mockpoint.json

Writes a running daemon's endpoints (records, routes, queued answers) as a mock file in JSON,
every data exactly as stored (big integers, key order, escapes), in name order.

Options:
  --names <a,b>      only these names (also names with routes and no record)
  --out <file>       write to this file instead of standard output
${DAEMON_OPTIONS}
  -h, --help         this help
`;

export async function runExport(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('export', argv, { values: ['--url', '--token', '--names', '--out'] });
  if (args.help) {
    io.out(EXPORT_HELP);
    return 0;
  }
  const names = args.values
    .get('--names')
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const text = await exportMockFile(daemonTarget(args, env), names ? { names } : {});
  const out = args.values.get('--out');
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}
