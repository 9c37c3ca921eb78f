/**
 * Whether a LevelDB directory has room to be reopened after a failed write.
 *
 * Reopening replays the write-ahead log (`*.log`) and writes it out as a table
 * before it starts a new log, so it needs about as much free space as the logs
 * take. A reopen that fails for lack of space leaves the database closed (no
 * reads either), so the store first proves the space is there: it writes a file
 * of that size, fsyncs it and removes it.
 *
 * @module
 */
import { open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The probe file's name: no LevelDB file looks like it, so LevelDB leaves it alone. */
export const PROBE_FILE = 'mockpoint-space-probe';

/** Room kept on top of the logs' size: the new MANIFEST, the new log's first writes, LevelDB's LOG. */
const MARGIN_BYTES = 64 * 1024;

const CHUNK = Buffer.alloc(64 * 1024);

/** How many bytes a reopen of `dir` needs free: the size of its logs plus a margin. */
export async function reopenBytes(dir: string): Promise<number> {
  let total = MARGIN_BYTES;
  for (const name of await readdir(dir)) {
    if (!/^\d+\.log$/.test(name)) continue;
    try {
      total += (await stat(join(dir, name))).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

/**
 * Resolves when `bytes` could be written and fsync'd in `dir` (the file is removed
 * again); rejects with the file system's error (e.g. `ENOSPC`) otherwise.
 */
export async function probeSpace(dir: string, bytes: number): Promise<void> {
  const path = join(dir, PROBE_FILE);
  const file = await open(path, 'w', 0o600);
  try {
    for (let written = 0; written < bytes; ) {
      const { bytesWritten } = await file.write(CHUNK, 0, Math.min(CHUNK.length, bytes - written));
      written += bytesWritten;
    }
    await file.sync();
  } finally {
    await file.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
  }
}
