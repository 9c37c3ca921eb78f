/**
 * `mockpoint validate FILE…`: checks mock files without a daemon, the checks
 * `--config` and `apply` make; each error is one line naming the file, line,
 * column and path. Exit 0 when all are valid, 1 otherwise.
 *
 * @module
 */
import { loadMockFile } from '@mockpoint/core/files';
import { type CommandIo, optionsHelp, parseArgs, UsageError } from './command-args.js';

export const VALIDATE_HELP = `Usage: mockpoint validate <file>...

Checks mock files (mockpoint.yaml or .json) as --config and apply would, without a daemon.
Prints one line per file: "ok" with what it defines, or the error with its file:line:column and
path. Exit code 0 when every file is valid, 1 otherwise.

${optionsHelp()}`;

export async function runValidate(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseArgs('validate', argv, {});
  if (args.help) {
    io.out(VALIDATE_HELP);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('validate needs a file: mockpoint validate mockpoint.yaml');
  let failed = 0;
  for (const path of args.positionals) {
    try {
      const file = loadMockFile(path);
      const routes = file.endpoints.reduce((sum, endpoint) => sum + endpoint.routes.length, 0);
      io.out(`${path}: ok (${file.endpoints.length} endpoint(s), ${routes} route(s))\n`);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string') throw error;
      failed++;
      io.err(`${(error as Error).message} [${code}]`);
    }
  }
  return failed === 0 ? 0 : 1;
}
