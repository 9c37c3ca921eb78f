/**
 * GitHub's `push`, `create`, `delete` and `pull_request.synchronize` events of a ref's move
 * (issue #73), told by the flows that move one (refs.ts, contents.ts): a branch or
 * tag made is `create` and a `push` with `created: true` and `before` all zeros, one moved a `push`
 * from the SHA it had to the new one (`head_commit` the commit when the twin made it, `commits` it
 * alone when the move made it, else those the history holds between the two: {@link pushedBetween}), one removed `delete`
 * and a `push` with `deleted: true`; a branch moved also `synchronize`s each open pull request
 * whose `head` it is, whose `head.sha` moves to the new commit (kept, as GitHub's follows the branch),
 * and moves the `base.sha` of each open one whose `base` it is (no event: GitHub sends none).
 *
 * @module
 */

import type { FlowState, MatchedOperation, OwnAnswer, OwnRequest } from '@mockpoint/core/internal';
import { type CommitRecord, commitsOf } from './history.js';
import { GITHUB_USER } from './issues.js';
import { branchSha } from './refs.js';
import { shownRepo } from './repo-kept.js';

/** Where a repository's refs and files are kept: the key of its records, its collections' path parameters, itself. */
export interface RepoPlace {
  /** The lower-case full name its records are kept under. */
  scope: string;
  /** The `owner` and `repo` its collections (and hooks) are kept under. */
  values: Record<string, string>;
  /** The repository as kept (`undefined`: a read below one not yet made). */
  repository?: Record<string, unknown> | undefined;
}

/**
 * An operation on a repository's own state (refs, contents, statuses, check runs): its answer,
 * `undefined` when the operation is another's (repos.ts asks each in turn).
 */
export type RepoOperation = (
  matched: MatchedOperation,
  sent: OwnRequest,
  state: FlowState,
  place: RepoPlace,
) => Promise<OwnAnswer | undefined>;

/** A commit as a `push` lists it (`commits[]`, `head_commit`). */
export interface PushedCommit {
  id: string;
  tree_id: string;
  distinct: boolean;
  message: string;
  timestamp: string;
  url: string;
  author: Record<string, string>;
  committer: Record<string, string>;
  added: string[];
  removed: string[];
  modified: string[];
}

/** What a ref's move was: `before` absent for a new ref, `after` for a removed one. */
export interface RefMove {
  ref: string;
  before?: string;
  after?: string;
  /** The commit `after` is, when the twin made it. */
  commit?: PushedCommit;
  /** Whether this move made `commit` (a file written: `commits` lists it; a ref moved to it lists none). */
  made?: boolean;
  forced?: boolean;
}

const ZERO = '0'.repeat(40);
const GIT_REFS = '/repos/{owner}/{repo}/git/refs';
const PULLS = '/repos/{owner}/{repo}/pulls';

/** Tells the events of a ref's move (none for a ref neither a branch nor a tag: `refs/notes/…`). */
export async function tellPush(state: FlowState, place: RepoPlace, move: RefMove): Promise<void> {
  const kind = move.ref.startsWith('refs/heads/') ? 'branch' : move.ref.startsWith('refs/tags/') ? 'tag' : undefined;
  if (kind === undefined) return;
  const short = move.ref.slice(kind === 'branch' ? 'refs/heads/'.length : 'refs/tags/'.length);
  const { repository, values } = place;
  const tell = (type: string, object: Record<string, unknown>) =>
    state.emit({ kind: 'action', template: GIT_REFS, object, values, events: [type] });
  const master = String(repository?.default_branch ?? 'main');
  if (move.before === undefined) {
    const description = repository?.description ?? null;
    tell('create', { ref: short, ref_type: kind, master_branch: master, description, pusher_type: 'user' });
  }
  if (move.after === undefined) tell('delete', { ref: short, ref_type: kind, pusher_type: 'user' });
  const before = move.before ?? ZERO;
  const after = move.after ?? ZERO;
  const html = String(repository?.html_url ?? `https://github.com/${values.owner}/${shownRepo(String(values.repo))}`);
  // The commits the move brings (a ref moved to a commit made through the Git database API, a
  // merge's): those its new commit reaches and its old one does not, as the history keeps them.
  const pushed: { list: PushedCommit[]; head?: PushedCommit } =
    move.made === true || move.after === undefined
      ? { list: [] }
      : await pushedBetween(state, place.scope, move.before, move.after, html);
  const compare =
    move.before === undefined
      ? `${html}/compare/${short}`
      : `${html}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`;
  tell('push', {
    ref: move.ref,
    before,
    after,
    created: move.before === undefined,
    deleted: move.after === undefined,
    forced: move.forced === true,
    base_ref: null,
    compare,
    commits: move.made === true && move.commit !== undefined ? [move.commit] : pushed.list,
    head_commit: move.after === undefined ? null : (move.commit ?? pushed.head ?? null),
    pusher: { name: GITHUB_USER.login, email: `${GITHUB_USER.id}+${GITHUB_USER.login}@users.noreply.github.com` },
  });
  if (kind !== 'branch' || move.after === undefined) return;
  const moved = await headsMoved(state, place, short, after);
  // A branch made anew moves the heads of pull requests of its name, with no `synchronize`.
  if (move.before === undefined) return;
  for (const pull of moved) {
    state.emit({
      kind: 'action',
      template: PULLS,
      object: pull,
      values,
      events: ['pull_request.synchronize'],
      extra: { before, after },
    });
  }
}

/**
 * The open pull requests of the repository at `place` whose head is its branch `branch`, their
 * `head.sha` moved to `sha` and their `base.sha` to the base branch's commit as it now is: GitHub
 * takes both again at each push to the head (its `synchronize`), and a push to the base alone
 * leaves `base.sha` where it was. Those moved, as they now are.
 */
async function headsMoved(
  state: FlowState,
  place: RepoPlace,
  branch: string,
  sha: string,
): Promise<Record<string, unknown>[]> {
  const { values } = place;
  const label = `${values.owner ?? ''}:${branch}`.toLowerCase();
  // A branch of that name in another owner's fork is not this one.
  const isBranch = (side: unknown): side is Record<string, unknown> => {
    const end = side as Record<string, unknown> | undefined;
    return end?.ref === branch && (typeof end.label !== 'string' || end.label.toLowerCase() === label);
  };
  const moved: Record<string, unknown>[] = [];
  for (const pull of await state.objects(PULLS, values)) {
    if (pull.state !== 'open' || !isBranch(pull.head)) continue;
    const baseRef = (pull.base as Record<string, unknown> | undefined)?.ref;
    const baseSha = typeof baseRef === 'string' ? await branchSha(state, place.scope, baseRef) : undefined;
    const amended = await state.amend(PULLS, values, String(pull.number), (kept) => {
      kept.head = { ...(kept.head as Record<string, unknown>), sha };
      if (baseSha !== undefined) kept.base = { ...(kept.base as Record<string, unknown>), sha: baseSha };
    });
    if (amended !== undefined) moved.push(amended);
  }
  return moved;
}

/** A commit the twin made, as a push lists it: the file written or removed at `path`. */
export function pushedCommit(
  commit: Record<string, unknown>,
  path: string,
  change: 'added' | 'modified' | 'removed',
): PushedCommit {
  const person = commit.author as Record<string, string>;
  const who = { name: person.name ?? '', email: person.email ?? '', username: GITHUB_USER.login };
  return {
    id: String(commit.sha),
    tree_id: String((commit.tree as { sha?: unknown }).sha),
    distinct: true,
    message: String(commit.message),
    timestamp: String(person.date),
    url: String(commit.html_url),
    author: who,
    committer: who,
    added: change === 'added' ? [path] : [],
    removed: change === 'removed' ? [path] : [],
    modified: change === 'modified' ? [path] : [],
  };
}

/** Most commits a `push` lists (GitHub's webhook: "a maximum of 2048 commits"). */
const MAX_PUSHED = 2048;
/** Most commits of the history walked to find them (the twin's store bounds the history besides). */
const MAX_WALKED = 20_000;

/** The commits `from` (and its ancestors) are, in the history `commits`: at most {@link MAX_WALKED}. */
function ancestors(commits: ReadonlyMap<string, CommitRecord>, from: string | undefined): Set<string> {
  const seen = new Set<string>();
  const next = from === undefined ? [] : [from];
  while (next.length > 0 && seen.size < MAX_WALKED) {
    const sha = next.pop() as string;
    if (seen.has(sha)) continue;
    seen.add(sha);
    for (const parent of commits.get(sha)?.parents ?? []) next.push(parent);
  }
  return seen;
}

/**
 * A ref's move from `before` to `after` as a `push` tells it: the commits `after` reaches that
 * `before` does not (none for a new ref, whose commits were pushed before; a move back none),
 * oldest first, at most {@link MAX_PUSHED}, each with the files it changed from its first parent;
 * and `after` itself as its `head_commit`, when the history holds it.
 */
async function pushedBetween(
  state: FlowState,
  scope: string,
  before: string | undefined,
  after: string,
  html: string,
): Promise<{ list: PushedCommit[]; head?: PushedCommit }> {
  const commits = await commitsOf(state, scope);
  const record = commits.get(after);
  if (record === undefined) return { list: [] };
  const head = historyCommit(record, commits, html);
  if (before === undefined) return { list: [], head };
  const known = ancestors(commits, before);
  const list = parentsFirst(commits, after, known)
    .slice(-MAX_PUSHED)
    .map((sha) => (sha === after ? head : historyCommit(commits.get(sha) as CommitRecord, commits, html)));
  return { list, head };
}

/** The commits `from` reaches in `commits` but those `known`, each after its parents (git's topological order). */
function parentsFirst(commits: ReadonlyMap<string, CommitRecord>, from: string, known: ReadonlySet<string>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const stack: [string, boolean][] = [[from, false]];
  while (stack.length > 0 && seen.size < MAX_WALKED) {
    const [sha, expanded] = stack.pop() as [string, boolean];
    if (expanded) {
      order.push(sha);
      continue;
    }
    if (seen.has(sha) || known.has(sha) || !commits.has(sha)) continue;
    seen.add(sha);
    stack.push([sha, true]);
    // The first parent last on the stack: walked first, so its line comes before a merged one's.
    for (const parent of [...(commits.get(sha)?.parents ?? [])].reverse()) stack.push([parent, false]);
  }
  return order;
}

/** A commit the history keeps, as a push lists it: the files it added, removed and changed from its first parent. */
function historyCommit(record: CommitRecord, commits: ReadonlyMap<string, CommitRecord>, html: string): PushedCommit {
  const was = commits.get(record.parents[0] ?? '')?.tree ?? {};
  const now = record.tree;
  const paths = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
  const person = (who: { name: string; email: string } | undefined) => ({
    name: who?.name ?? GITHUB_USER.login,
    email: who?.email ?? `${GITHUB_USER.id}+${GITHUB_USER.login}@users.noreply.github.com`,
    username: GITHUB_USER.login,
  });
  return {
    id: record.sha,
    tree_id: record.tree_sha,
    distinct: true,
    message: record.message,
    timestamp: record.date,
    url: `${html}/commit/${record.sha}`,
    author: person(record.author),
    committer: person(record.committer ?? record.author),
    added: paths.filter((path) => was[path] === undefined),
    removed: paths.filter((path) => now[path] === undefined),
    modified: paths.filter((path) => was[path] !== undefined && now[path] !== undefined && was[path] !== now[path]),
  };
}
