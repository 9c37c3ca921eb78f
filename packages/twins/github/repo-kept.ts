/**
 * How GitHub's repositories are kept (twin-own.ts, repos.ts): one record a full name in
 * lower case, holding the repository, or where a renamed one went; read by the repository flows
 * and by the payloads (payloads.ts), whose `repository` is the one kept.
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';

/** The kind the repositories are kept as. */
export const REPOS = 'repos';

/** One repository kept, by its full name in lower case; or where a renamed one went. */
export interface RepoRecord {
  repository?: Record<string, unknown>;
  /** The full name its issues, refs and contents are kept under: its first. */
  scope?: string;
  /** The full name a repository renamed from this one now has. */
  moved?: string;
  /** A repository deleted: the id it had, which no later one gets; its `scope` no later one takes. */
  deleted?: number;
}

export function keyOf(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

export function loginOf(record: RepoRecord): string {
  return String((record.repository?.owner as { login?: unknown } | undefined)?.login ?? '').toLowerCase();
}

export async function records(state: FlowState): Promise<Map<string, RepoRecord>> {
  return state.read<RepoRecord>(REPOS);
}

/** The live repositories kept, in the order made. */
export function live(all: Map<string, RepoRecord>): RepoRecord[] {
  return [...all.values()].filter((record) => record.repository !== undefined);
}

/** The path's parameters a repository's collections are kept under (its first full name, `scope`). */
export function valuesOf(scope: string): { owner: string; repo: string } {
  const at = scope.indexOf('/');
  return { owner: scope.slice(0, at), repo: scope.slice(at + 1) };
}

/**
 * A repository's name as its URLs say it: the scope of one made after another of its name was
 * renamed or deleted ends in `#{id}` (so it keeps its own issues and hooks), which no URL shows.
 */
export function shownRepo(repo: string): string {
  const at = repo.indexOf('#');
  return at === -1 ? repo : repo.slice(0, at);
}

/** The live repository whose collections are kept under `owner/repo` (its first name), if one is. */
export async function keptRepository(
  state: FlowState,
  owner: string,
  repo: string,
): Promise<Record<string, unknown> | undefined> {
  const scope = keyOf(owner, repo);
  return live(await records(state)).find((record) => record.scope?.toLowerCase() === scope)?.repository;
}

/** Tells the `repository` event `action` of `repository`, to the hooks kept under `scope`. */
export function tellRepository(
  state: FlowState,
  scope: string,
  repository: Record<string, unknown>,
  action: string,
  changes?: Record<string, unknown>,
): void {
  state.emit({
    kind: 'action',
    template: '/repos/{owner}/{repo}',
    object: repository,
    values: valuesOf(scope),
    events: [`repository.${action}`],
    ...(changes === undefined ? {} : { extra: { changes } }),
  });
}

/** The fields whose change is `repository.edited`, with their prior values in its `changes`. */
const EDITED = ['description', 'homepage', 'default_branch', 'topics'];

/**
 * Tells what an update of a repository changed besides its name: `privatized` or `publicized`,
 * `archived` or `unarchived`, and `edited` with the prior values of the fields GitHub names.
 */
export function tellEdits(
  state: FlowState,
  scope: string,
  was: Record<string, unknown>,
  now: Record<string, unknown>,
): void {
  if (was.private !== now.private)
    tellRepository(state, scope, now, now.private === true ? 'privatized' : 'publicized');
  if (was.archived !== now.archived)
    tellRepository(state, scope, now, now.archived === true ? 'archived' : 'unarchived');
  const changes: Record<string, unknown> = {};
  for (const field of EDITED) {
    if (JSON.stringify(was[field]) !== JSON.stringify(now[field])) changes[field] = { from: was[field] ?? null };
  }
  if (Object.keys(changes).length > 0) tellRepository(state, scope, now, 'edited', changes);
}
