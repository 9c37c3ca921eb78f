/**
 * `mockpoint apply FILE [--prune] [--dry-run]`: makes a running daemon hold
 * what a mock file defines, printing the diff (created / changed / hosts moved / removed).
 *
 * @module
 */
import { applyMockFile, describePlan, loadMockFile } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';

export const APPLY_HELP = `Usage: mockpoint apply <file> [options]

Makes a running daemon hold what the mock file defines: for each name in the file, its record,
routes and queued answers become the file's (names not in the file are kept unless --prune), and
each host it maps is the file's endpoint's (one another endpoint holds moves; one MOCKPOINT_HOSTS
maps elsewhere is refused before anything is written).
Prints the diff: "+ name" created, "~ name" changed, "> host moved from endpoint …" a host moved,
"- name" removed, then a count.

${optionsHelp(
  `
--prune   | remove the endpoints the file does not define
--dry-run | print the diff only; change nothing
`,
  DAEMON_OPTIONS,
)}`;

export async function runApply(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('apply', argv, { values: ['--url', '--token'], switches: ['--prune', '--dry-run'] });
  if (args.help) {
    io.out(APPLY_HELP);
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError('apply needs one file: mockpoint apply mockpoint.yaml');
  const target = daemonTarget(args, env);
  const file = loadMockFile(args.positionals[0] as string);
  const dryRun = args.switches.has('--dry-run');
  const plan = await applyMockFile(file, target, { prune: args.switches.has('--prune'), dryRun });
  for (const line of describePlan(plan, dryRun)) io.out(`${line}\n`);
  return 0;
}
