/**
 * `mockpoint export [--names a,b] [--format json|yaml] [--out FILE]`: a running
 * daemon's endpoints as a mock file (every `data` exact), so export → reset →
 * apply answers the same bytes.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { exportMockFile } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';

export const EXPORT_HELP = `Usage: mockpoint export [options] > mockpoint.json

Writes a running daemon's endpoints (records, routes, queued answers) as a mock file in JSON or
YAML, every data exactly as stored (big integers, key order, escapes), in name order.

${optionsHelp(
  `
--names <a,b> | only these names (also names with routes and no record)
--format <f>  | json or yaml (default: yaml for an --out ending in .yaml/.yml, else json)
--out <file>  | write to this file instead of standard output
`,
  DAEMON_OPTIONS,
)}`;

export async function runExport(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('export', argv, { values: ['--url', '--token', '--names', '--format', '--out'] });
  if (args.help) {
    io.out(EXPORT_HELP);
    return 0;
  }
  const names = args.values
    .get('--names')
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const out = args.values.get('--out');
  const format = args.values.get('--format') ?? (out !== undefined && /\.ya?ml$/i.test(out) ? 'yaml' : 'json');
  if (format !== 'json' && format !== 'yaml') throw new UsageError(`--format must be json or yaml; received ${format}`);
  const text = await exportMockFile(daemonTarget(args, env), names ? { names, format } : { format });
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}
