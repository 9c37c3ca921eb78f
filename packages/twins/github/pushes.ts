/**
 * GitHub's `push`, `create`, `delete` and `pull_request.synchronize` events of a ref's move
 * (issue #73), told by the flows that move one (refs.ts, contents.ts): a branch or
 * tag made is `create` and a `push` with `created: true` and `before` all zeros, one moved a `push`
 * from the SHA it had to the new one (`head_commit` the commit when the twin made it, `commits` it
 * alone when the move made it: the twin keeps no history to list between two), one removed `delete`
 * and a `push` with `deleted: true`; a branch moved also `synchronize`s each open pull request
 * whose `head` it is, whose `head.sha` moves to the new commit (kept, as GitHub's follows the branch),
 * and moves the `base.sha` of each open one whose `base` it is (no event: GitHub sends none).
 *
 * @module
 */

import type { FlowState, MatchedOperation, OwnAnswer, OwnRequest } from '@mockpoint/core/internal';
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
    commits: move.commit === undefined || move.made !== true ? [] : [move.commit],
    head_commit: move.after === undefined ? null : (move.commit ?? null),
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
