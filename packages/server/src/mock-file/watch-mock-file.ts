/**
 * `--config FILE [--watch]`: the mock file loaded into the daemon at start
 * (it wins for the names it defines and the hosts it maps, each host moved from
 * another endpoint said on one line; other names are kept), and reapplied on
 * change of the file or of a `$file` fixture it reads: the new version is read
 * and checked whole first, so an edit with an error (or a half-written save)
 * is reported in one line and applies nothing, and the last good version stays.
 *
 * @module
 */
import { type FSWatcher, watch } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  type AdminTarget,
  type ApplyPlan,
  applyChanges,
  applyMockFile,
  describeMove,
  type LoadMockFileOptions,
  loadMockFile,
  type MockFile,
} from '@mockpoint/core/files';
import { isOwnError, MockpointError } from '@mockpoint/core/internal';

/** Options for {@link loadAndWatch}. */
export interface WatchOptions extends LoadMockFileOptions {
  /** Keep watching the file and reapply it on change. @default false */
  watch?: boolean;
  /** One line for a person per reload (applied, or refused with the reason), and per host the file moved. */
  report?: (line: string) => void;
  /** How long to wait for a burst of change events to end before reading. @default 50 */
  settleMs?: number;
}

/** A loaded (and maybe watched) mock file. */
export interface LoadedMockFile {
  /** The plan of the load at start. */
  plan: ApplyPlan;
  /** The last good version applied. */
  current(): MockFile;
  /** Stops watching (and waits for a reload in progress). */
  close(): Promise<void>;
}

function summary(plan: ApplyPlan): string {
  const parts = [
    plan.created.length ? `created ${plan.created.join(', ')}` : '',
    plan.changed.length ? `changed ${plan.changed.join(', ')}` : '',
    plan.removed.length ? `removed ${plan.removed.join(', ')}` : '',
    plan.chaos === undefined ? '' : `namespace chaos ${plan.chaos}`,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'nothing changed';
}

/**
 * Loads `path` into `target` (throws its first error: a bad file stops start-up)
 * and, with `watch`, reapplies it on every change.
 */
export async function loadAndWatch(
  path: string,
  target: AdminTarget,
  options: WatchOptions = {},
): Promise<LoadedMockFile> {
  const report = options.report ?? (() => {});
  // The absolute paths whose change means a reload: the mock file and the `$file` fixtures it read.
  let watched = new Set<string>([resolve(path)]);
  // One watcher per folder that holds a watched file: editors save by writing a new file and renaming it over the old one.
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const load = (): MockFile => {
    const read = new Set<string>([resolve(path)]);
    let ok = false;
    try {
      const file = loadMockFile(path, { ...options, onFileRead: (fixture) => read.add(fixture) });
      ok = true;
      return file;
    } finally {
      // A bad load stops at its first error: the fixtures it did not reach stay watched.
      watched = ok ? read : new Set([...watched, ...read]);
      if (options.watch) watchFolders();
    }
  };
  const stop = () => {
    closed = true;
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  const reportMoves = (plan: ApplyPlan) => {
    for (const move of plan.moved) report(`mockpoint: ${describeMove(move)} (${path} maps it)`);
  };
  let good: MockFile;
  let plan: ApplyPlan;
  try {
    good = load();
    plan = await applyMockFile(good, target);
  } catch (error) {
    stop(); // a bad file stops start-up: nothing is left watching
    // A host MOCKPOINT_HOSTS maps elsewhere (checked before any write): the line names the file too.
    if (isOwnError(error) && error.code === 'HOST_TAKEN') {
      // Its status and details ({ host, name }) kept: the line gains the file's path, nothing is lost.
      const { status, details } = error as { status?: number; details?: Readonly<Record<string, unknown>> };
      throw new MockpointError('HOST_TAKEN', `${path}: ${error.message}`, {
        cause: error,
        ...(status === undefined ? {} : { status }),
        ...(details === undefined ? {} : { details: { ...details } }),
      });
    }
    throw error;
  }
  reportMoves(plan);

  const reload = async () => {
    let next: MockFile;
    try {
      next = load();
    } catch (error) {
      report(`mockpoint: ${path} not applied, the last good version stays: ${(error as Error).message}`);
      return;
    }
    try {
      const changes = await applyChanges(good, next, target);
      good = next;
      reportMoves(changes);
      report(`mockpoint: ${path} reloaded: ${summary(changes)}`);
    } catch (error) {
      // HOST_TAKEN is the check against MOCKPOINT_HOSTS (or a daemon that cannot move a host), made before anything is written.
      const untouched = isOwnError(error) && error.code === 'HOST_TAKEN';
      report(
        untouched
          ? `mockpoint: ${path} not applied, the last good version stays: ${(error as Error).message}`
          : `mockpoint: ${path} could not be applied in full: ${(error as Error).message}`,
      );
    }
  };

  function watchFolders(): void {
    const folders = new Set([...watched].map((file) => dirname(file)));
    for (const [folder, watcher] of watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of folders) {
      if (watchers.has(folder) || closed) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(folder, (_event, changed) => {
          if (closed || (changed !== null && !watched.has(resolve(folder, changed)))) return;
          clearTimeout(timer);
          timer = setTimeout(() => {
            running = running.then(reload);
          }, options.settleMs ?? 50);
        });
      } catch {
        continue; // a fixture's folder that is gone: the next load reports the missing file
      }
      watchers.set(folder, watcher);
    }
  }

  return {
    plan,
    current: () => good,
    close: async () => {
      stop();
      await running;
    },
  };
}
