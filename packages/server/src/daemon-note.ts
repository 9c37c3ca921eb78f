/**
 * The note a daemon keeps in its LevelDB data directory while it runs: its pid and where it
 * listens (`mockpoint-daemon.json`, its owner's alone). A second daemon refused the directory
 * (DATA_DIR_LOCKED) reads it to say where the running one is and what to do instead.
 *
 * @module
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockpointError } from '@mockpoint/core/internal';

/** The note's file name inside the data directory (no LevelDB file is named so). */
const NOTE_FILE = 'mockpoint-daemon.json';

/** The most URLs the refusal names (a daemon with many `--serve` ports lists its own first). */
const MAX_URLS = 2;

/** What the note holds. */
interface DaemonNote {
  pid: number;
  urls: string[];
}

/** Writes the note for this process; a directory that refuses it only costs the hint. */
export function writeDaemonNote(dataDir: string, urls: readonly string[]): void {
  const note: DaemonNote = { pid: process.pid, urls: urls.slice(0, MAX_URLS) };
  try {
    writeFileSync(join(dataDir, NOTE_FILE), `${JSON.stringify(note)}\n`, { mode: 0o600 });
  } catch {
    // a read-only or vanished directory: the refusal then says only what to do
  }
}

/** Removes the note when it is this process's (a later daemon's note stays). */
export function removeDaemonNote(dataDir: string): void {
  if (readNote(dataDir)?.pid === process.pid) rmSync(join(dataDir, NOTE_FILE), { force: true });
}

/** The note of a process that still runs, else `undefined` (none, unreadable, or left by a killed daemon). */
function readNote(dataDir: string): DaemonNote | undefined {
  try {
    const note = JSON.parse(readFileSync(join(dataDir, NOTE_FILE), 'utf8')) as Partial<DaemonNote>;
    if (!Number.isSafeInteger(note.pid) || !Array.isArray(note.urls)) return undefined;
    const urls = note.urls.filter((url): url is string => typeof url === 'string' && /^https?:\/\/\S+$/.test(url));
    return { pid: note.pid as number, urls: urls.slice(0, MAX_URLS) };
  } catch {
    return undefined;
  }
}

/** Whether process `pid` exists (EPERM: it does, under another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * DATA_DIR_LOCKED for `dataDir`, saying where the daemon holding it listens (when its note says so)
 * and the ways out: stop it, or start this one with `--memory` or another `--data-dir`.
 */
export function dataDirLocked(dataDir: string, cause: unknown): MockpointError {
  const note = readNote(dataDir);
  const holder =
    note !== undefined && running(note.pid)
      ? ` (pid ${note.pid}${note.urls.length > 0 ? `, listening on ${note.urls.join(' and ')}` : ''})`
      : '';
  return new MockpointError(
    'DATA_DIR_LOCKED',
    `data directory ${dataDir} is in use by another mockpoint process${holder}: use that one, stop it, or start this one with --memory (nothing on disk) or --data-dir <another directory>`,
    { cause },
  );
}
