/**
 * Applying a mock file to a daemon (or an app in this process): the file wins
 * for the names it defines, other names are kept (or removed with `prune`).
 * First a plan (what is created, changed, unchanged, removed), then the writes.
 *
 * @module
 */
import { type AdminTarget, listNames, readState, removeState, stateKey, writeState } from './admin-calls.js';
import type { MockFile } from './parse-mock-file.js';

/** What applying a file does (or did), by endpoint name. */
export interface ApplyPlan {
  created: string[];
  changed: string[];
  unchanged: string[];
  removed: string[];
}

/** Options for {@link applyMockFile}. */
export interface ApplyOptions {
  /** Remove the names the file does not define. @default false */
  prune?: boolean;
  /** Plan only: change nothing. @default false */
  dryRun?: boolean;
}

/**
 * Makes the target hold what `file` defines, name by name, and answers the plan.
 * Each name is written as a whole (record, routes, queued answers); names whose
 * state already equals the file's are not touched.
 * @example await applyMockFile(loadMockFile('mockpoint.yaml'), { url: 'http://127.0.0.1:16540' })
 */
export async function applyMockFile(
  file: MockFile,
  target: AdminTarget,
  options: ApplyOptions = {},
): Promise<ApplyPlan> {
  const plan: ApplyPlan = { created: [], changed: [], unchanged: [], removed: [] };
  const defined = new Set(file.endpoints.map((endpoint) => endpoint.name));
  const existing = new Set(await listNames(target));
  const writes: (() => Promise<void>)[] = [];
  for (const desired of file.endpoints) {
    const current = await readState(target, desired.name);
    const exists =
      existing.has(desired.name) ||
      current.routes.length > 0 ||
      current.queue.length > 0 ||
      current.collections !== undefined ||
      current.hosts !== undefined ||
      current.graphql !== undefined;
    if (exists && stateKey(current) === stateKey(desired)) {
      plan.unchanged.push(desired.name);
      continue;
    }
    (exists ? plan.changed : plan.created).push(desired.name);
    writes.push(() => writeState(target, desired, current));
  }
  if (options.prune) {
    for (const name of existing) {
      if (defined.has(name)) continue;
      plan.removed.push(name);
      writes.push(() => removeState(target, name));
    }
  }
  if (!options.dryRun) for (const write of writes) await write();
  return plan;
}

/** The plan as lines for a person: `+ name` created, `~ name` changed, `- name` removed, and a count. */
export function describePlan(plan: ApplyPlan, dryRun = false): string[] {
  const lines = [
    ...plan.created.map((name) => `+ ${name}`),
    ...plan.changed.map((name) => `~ ${name}`),
    ...plan.removed.map((name) => `- ${name}`),
  ];
  const verb = dryRun ? 'would be' : '';
  const count = (n: number, what: string) => `${n} ${verb ? `${verb} ` : ''}${what}`;
  lines.push(
    `${count(plan.created.length, 'created')}, ${count(plan.changed.length, 'changed')}, ${count(plan.removed.length, 'removed')}, ${plan.unchanged.length} unchanged`,
  );
  return lines;
}

/**
 * Applies only what differs between two versions of a file (for watching it):
 * endpoints that are new or changed in `next` are written, endpoints that
 * `previous` defined and `next` does not are removed. Answers the plan.
 */
export async function applyChanges(previous: MockFile, next: MockFile, target: AdminTarget): Promise<ApplyPlan> {
  const plan: ApplyPlan = { created: [], changed: [], unchanged: [], removed: [] };
  const before = new Map(previous.endpoints.map((endpoint) => [endpoint.name, stateKey(endpoint)]));
  const names = new Set(next.endpoints.map((endpoint) => endpoint.name));
  for (const endpoint of next.endpoints) {
    const key = before.get(endpoint.name);
    if (key === stateKey(endpoint)) {
      plan.unchanged.push(endpoint.name);
      continue;
    }
    await writeState(target, endpoint);
    (key === undefined ? plan.created : plan.changed).push(endpoint.name);
  }
  for (const endpoint of previous.endpoints) {
    if (names.has(endpoint.name)) continue;
    await removeState(target, endpoint.name);
    plan.removed.push(endpoint.name);
  }
  return plan;
}
