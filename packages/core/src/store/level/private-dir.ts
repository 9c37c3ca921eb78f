/**
 * The data directory is its owner's alone: webhook signing secrets, delivery
 * secrets and the local CA's key live in it. `makePrivate()` sets the folder to
 * mode 0700 and every file in it to 0600 whatever the umask (LevelDB creates
 * its files with the process's umask; the daemon sets one of 077 as well), and
 * says what it found looser (a data directory made by an older version, or
 * under a permissive umask) so the daemon can tell the person once.
 *
 * @module
 */
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The folder's mode (the files lose every bit for the group and others: 0600 for LevelDB's). */
const PRIVATE_DIR_MODE = 0o700;

/** What {@link makePrivate} had to tighten: the folder's old mode (if looser) and how many files were. */
export interface Tightened {
  dirMode: number | undefined;
  files: number;
}

/** Any permission for the group or others. */
const SHARED = 0o077;

/** chmod, or `false` when this user may not change the file (another user's): it stays as it is. */
async function chmodIfOwned(path: string, mode: number): Promise<boolean> {
  try {
    await chmod(path, mode);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
    throw error;
  }
}

/**
 * Creates `dir` if missing, then sets it to 0700 and each regular file directly
 * in it to 0600. Resolves what was looser before, or `undefined` when nothing was.
 */
export async function makePrivate(dir: string): Promise<Tightened | undefined> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const mode = (await stat(dir)).mode & 0o777;
  // Set even when equal in the shared bits: a umask may have left the owner without a bit it needs.
  if (mode !== PRIVATE_DIR_MODE) await chmodIfOwned(dir, PRIVATE_DIR_MODE);
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    try {
      const fileMode = (await stat(path)).mode & 0o777;
      if ((fileMode & SHARED) === 0) continue;
      if (await chmodIfOwned(path, fileMode & ~SHARED)) files++;
    } catch (error) {
      // A file LevelDB removed meanwhile (a compacted table, an old log).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return (mode & SHARED) === 0 && files === 0 ? undefined : { dirMode: mode & SHARED ? mode : undefined, files };
}

/** The one line saying what {@link makePrivate} tightened in `dir`. */
export function tightenedLine(dir: string, tightened: Tightened): string {
  const was = [
    tightened.dirMode === undefined ? '' : `the folder was mode ${tightened.dirMode.toString(8).padStart(4, '0')}`,
    tightened.files === 0 ? '' : `${tightened.files} file(s) in it were readable by others`,
  ].filter(Boolean);
  return `data directory ${dir}: ${was.join(' and ')}; now the folder is 0700 and its files 0600, as it holds webhook secrets and the local CA's key (docs/safety.md#files-on-disk)`;
}
