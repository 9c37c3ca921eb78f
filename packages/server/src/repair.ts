/**
 * `mockpoint repair --data-dir DIR`: LevelDB's own repair of a data directory with
 * damaged files (see docs/reliability.md). Keeps every record that can still be
 * read and says how many that is; the files it cannot use are kept in DIR/lost.
 *
 * @module
 */
import { resolve } from 'node:path';

export const REPAIR_HELP = `Usage: mockpoint repair --data-dir DIR

Repairs the LevelDB database in DIR with LevelDB's own repair: every record that
can still be read is kept, files that cannot be used are moved to DIR/lost (kept,
not deleted), and the number of records that survived is printed. Stop the
daemon that uses DIR first.
`;

/** Runs the command; resolves with the exit code. */
export async function runRepair(argv: string[], cwd: string): Promise<number> {
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      process.stdout.write(REPAIR_HELP);
      return 0;
    }
    if (arg === '--data-dir' && argv[i + 1] !== undefined) dir = argv[++i];
    else if (arg.startsWith('--data-dir=')) dir = arg.slice('--data-dir='.length);
    else {
      process.stderr.write(
        `mockpoint: error: repair: unknown argument ${arg}; usage: mockpoint repair --data-dir DIR\n`,
      );
      return 1;
    }
  }
  if (dir === undefined || dir === '') {
    process.stderr.write('mockpoint: error: repair: --data-dir DIR is required (the directory to repair)\n');
    return 1;
  }
  const path = resolve(cwd, dir);
  const { repairLevelStore } = await import('@mockpoint/core/level');
  let result: Awaited<ReturnType<typeof repairLevelStore>>;
  try {
    result = await repairLevelStore(path);
  } catch (error) {
    process.stderr.write(`mockpoint: error: repair: ${(error as Error).message}\n`);
    return 1;
  }
  const { records, damaged, setAside } = result;
  const found =
    damaged.length > 0 ? `; found damaged: ${damaged.map((t) => `${t.file} (${t.problem})`).join(', ')}` : '';
  const lost =
    setAside.length > 0
      ? `; set aside in ${path}/lost (kept): ${setAside.join(', ')} — records only they held are not in the repaired database`
      : '';
  process.stdout.write(`mockpoint: repaired ${path}: ${records} record(s) can be read${found}${lost}\n`);
  if (records === 0 && (setAside.length > 0 || damaged.length > 0)) {
    process.stderr.write(
      `mockpoint: error: repair: no record could be recovered from ${path}; the damaged files are kept in ${path}/lost\n`,
    );
    return 1;
  }
  return 0;
}
