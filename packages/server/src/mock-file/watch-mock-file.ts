/**
 * `--config FILE [--watch]`: the mock file loaded into the daemon at start
 * (it wins for the names it defines; other names are kept), and reapplied on
 * change: the new version is read and checked whole first, so an edit with an
 * error (or a half-written save) is reported in one line and applies nothing,
 * and the last good version stays.
 *
 * @module
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  type AdminTarget,
  type ApplyPlan,
  applyChanges,
  applyMockFile,
  type LoadMockFileOptions,
  loadMockFile,
  type MockFile,
} from '@mockpoint/core/files';

/** Options for {@link loadAndWatch}. */
export interface WatchOptions extends LoadMockFileOptions {
  /** Keep watching the file and reapply it on change. @default false */
  watch?: boolean;
  /** One line for a person, per reload (applied, or refused with the reason). */
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
  let good = loadMockFile(path, options);
  const plan = await applyMockFile(good, target);
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const reload = async () => {
    let next: MockFile;
    try {
      next = loadMockFile(path, options);
    } catch (error) {
      report(`mockpoint: ${path} not applied, the last good version stays: ${(error as Error).message}`);
      return;
    }
    try {
      const changes = await applyChanges(good, next, target);
      good = next;
      report(`mockpoint: ${path} reloaded: ${summary(changes)}`);
    } catch (error) {
      report(`mockpoint: ${path} could not be applied in full: ${(error as Error).message}`);
    }
  };

  if (options.watch) {
    // The folder, not the file: editors save by writing a new file and renaming it over the old one.
    const name = basename(path);
    watcher = watch(dirname(path), (_event, changed) => {
      if (closed || (changed !== null && changed !== name)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(reload);
      }, options.settleMs ?? 50);
    });
  }
  return {
    plan,
    current: () => good,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
      await running;
    },
  };
}
