/**
 * A repository's commit history as git keeps it, made by the twin's writes (the contents API,
 * merges, `auto_init`): each commit its parents and its whole tree (path → blob SHA), each blob's
 * bytes kept once by its SHA. The files one commit changes, or a range of them, are the difference
 * of two trees (commit-diff.ts); a pull request's are those between the merge base of its base and
 * its head, as GitHub's three-dot comparison gives them.
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';
import type { RefsReader } from './refs.js';

const COMMITS = 'commits';
const BLOBS = 'blobs';

/**
 * Sets a tree's `path` to `sha` as its own member, whatever the path: a file named `__proto__` is
 * kept as any other (a plain assignment would set the object's prototype and drop it).
 */
export function setPath(tree: Record<string, string>, path: string, sha: string): void {
  Object.defineProperty(tree, path, { value: sha, enumerable: true, writable: true, configurable: true });
}

/** A commit kept: what it says, its parents, its tree. */
export interface CommitRecord {
  sha: string;
  node_id: string;
  message: string;
  /** When it was made, ISO 8601. */
  date: string;
  parents: string[];
  /** Its files, by path: each one's blob SHA. */
  tree: Record<string, string>;
  /** Its tree's SHA ({@link treeSha}). */
  tree_sha: string;
  /** Who wrote it and who committed it, as `git.createCommit` was sent them (the Octocat, else). */
  author?: GitPerson;
  committer?: GitPerson;
}

/** A commit's author or committer, or a tag's tagger. */
export interface GitPerson {
  name: string;
  email: string;
  date: string;
}

/** What reads the history: a flow's state or a create's kit. */
type Reader = RefsReader;

/** The commits of the repository kept as `scope`, by SHA (every one: the kind is bounded by the twin's own records). */
export async function commitsOf(state: Reader, scope: string): Promise<Map<string, CommitRecord>> {
  const prefix = `${scope}:`;
  const commits = new Map<string, CommitRecord>();
  for (const [key, record] of await state.read<CommitRecord>(COMMITS)) {
    if (key.startsWith(prefix)) commits.set(record.sha, record);
  }
  return commits;
}

/** The commit `sha` of the repository kept as `scope` (`undefined`: the twin made none so). */
export async function commitOf(state: Reader, scope: string, sha: string): Promise<CommitRecord | undefined> {
  return (await state.read<CommitRecord>(COMMITS)).get(`${scope}:${sha.toLowerCase()}`);
}

/** Keeps `commit` of the repository kept as `scope`, and the bytes of its new blobs. */
export async function keepCommit(
  state: FlowState,
  scope: string,
  commit: CommitRecord,
  blobs: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const kept = await state.read<{ content: string }>(BLOBS);
  for (const [sha, content] of blobs) {
    if (!kept.has(`${scope}:${sha}`)) await state.keep(BLOBS, `${scope}:${sha}`, { content });
  }
  await state.keep(COMMITS, `${scope}:${commit.sha}`, commit);
}

/**
 * Keeps the blob `sha` (its base64 bytes `content`) of the repository kept as `scope`, once
 * (`fresh`: the caller knows it is not kept yet, so the blobs are not read again).
 */
export async function keepBlob(
  state: FlowState,
  scope: string,
  blob: { sha: string; content: string },
  fresh = false,
): Promise<void> {
  if (fresh || !(await state.read<{ content: string }>(BLOBS)).has(`${scope}:${blob.sha}`)) {
    await state.keep(BLOBS, `${scope}:${blob.sha}`, { content: blob.content });
  }
}

/** The blobs of the repository kept as `scope` read once: the base64 bytes of one by its SHA (`undefined`: none kept). */
export async function blobReader(state: Reader, scope: string): Promise<(sha: string) => string | undefined> {
  const blobs = await state.read<{ content: string }>(BLOBS);
  return (sha) => blobs.get(`${scope}:${sha}`)?.content;
}

/** The tree of the commit `sha` (empty for a commit the twin did not make: a SHA sent to `git.createRef`). */
export async function treeAt(state: Reader, scope: string, sha: string | undefined): Promise<Record<string, string>> {
  if (sha === undefined) return {};
  return (await commitOf(state, scope, sha))?.tree ?? {};
}

/**
 * Keeps the commit `made` (as the contents API answers it, its `tree.sha` set here) of the
 * repository kept as `scope`: its parent's tree with `path` now the blob `blob` (its base64
 * `content`), or without it (`blob` undefined: removed).
 */
export async function keepWrite(
  state: FlowState,
  scope: string,
  made: Record<string, unknown>,
  change: { path: string; blob?: string; content?: string },
): Promise<void> {
  const parents = (made.parents as { sha: string }[]).map((parent) => parent.sha);
  const tree = { ...(await treeAt(state, scope, parents[0])) };
  if (change.blob === undefined) delete tree[change.path];
  else setPath(tree, change.path, change.blob);
  const tree_sha = await treeSha(tree);
  const shown = made.tree as Record<string, unknown>;
  shown.sha = tree_sha;
  shown.url = String(shown.url).replace(/[0-9a-f]{40}$/, tree_sha);
  const blobs = new Map(change.blob === undefined ? [] : [[change.blob, change.content ?? '']]);
  const author = made.author as { date: string };
  const commit: CommitRecord = {
    sha: String(made.sha),
    node_id: String(made.node_id),
    message: String(made.message),
    date: author.date,
    parents,
    tree,
    tree_sha,
  };
  await keepCommit(state, scope, commit, blobs);
}

/**
 * Keeps a pull request's merge commit `sha` on `base` (the base branch's commit): its tree the
 * base's with what the head (`head`, its commit) changed since their merge base; its parents the
 * base and, for a merge commit (not a squash or a rebase), the head.
 */
export async function keepMerge(
  state: FlowState,
  scope: string,
  made: { sha: string; message: string; date: string; base: string; head: string | undefined; squashed: boolean },
): Promise<void> {
  const tree = { ...(await treeAt(state, scope, made.base)) };
  const head = made.head === undefined ? undefined : await commitOf(state, scope, made.head);
  if (head !== undefined) {
    const { mergeBase } = await compared(state, scope, made.base, head.sha);
    const from = await treeAt(state, scope, mergeBase);
    for (const path of new Set([...Object.keys(from), ...Object.keys(head.tree)])) {
      if (from[path] === head.tree[path]) continue;
      const now = head.tree[path];
      if (now === undefined) delete tree[path];
      else setPath(tree, path, now);
    }
  }
  const parents = made.squashed || head === undefined ? [made.base] : [made.base, head.sha];
  const commit: CommitRecord = {
    sha: made.sha,
    node_id: state.newId('C_'),
    message: made.message,
    date: made.date,
    parents,
    tree,
    tree_sha: await treeSha(tree),
  };
  await keepCommit(state, scope, commit);
}

/** A tree's SHA, as a hash of its entries (the twin does not write git's tree objects). */
export async function treeSha(tree: Readonly<Record<string, string>>): Promise<string> {
  const text = Object.keys(tree)
    .sort()
    .map((path) => `${path}\0${tree[path]}`)
    .join('\n');
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(`tree ${text}`)));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The commits reachable from `head`, newest first (by date, then as reached), at most `limit`
 * (git log's order over the twin's history), from the repository's commits as one map.
 */
export function history(commits: ReadonlyMap<string, CommitRecord>, head: string, limit: number): CommitRecord[] {
  const seen = new Set<string>([head]);
  const frontier: CommitRecord[] = [];
  const start = commits.get(head);
  if (start !== undefined) frontier.push(start);
  const out: CommitRecord[] = [];
  while (frontier.length > 0 && out.length < limit) {
    frontier.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    const next = frontier.shift() as CommitRecord;
    out.push(next);
    for (const parent of next.parents) {
      const found = commits.get(parent);
      if (found !== undefined && !seen.has(parent)) {
        seen.add(parent);
        frontier.push(found);
      }
    }
  }
  return out;
}

/** The SHAs reachable from `head` (itself too). */
function ancestors(commits: ReadonlyMap<string, CommitRecord>, head: string): Set<string> {
  const seen = new Set<string>();
  const stack = [head];
  while (stack.length > 0) {
    const sha = stack.pop() as string;
    if (seen.has(sha)) continue;
    seen.add(sha);
    for (const parent of commits.get(sha)?.parents ?? []) stack.push(parent);
  }
  return seen;
}

/** How `head` stands to `base`: their merge base, the commits of `head` not in `base` (oldest first), and how many of `base`'s are not in `head`. */
export interface Comparison {
  mergeBase: string | undefined;
  ahead: CommitRecord[];
  behindBy: number;
}

/** Compares `head` with `base` in the repository kept as `scope`, as git's `base...head` does. */
export async function compared(state: Reader, scope: string, base: string, head: string): Promise<Comparison> {
  const commits = await commitsOf(state, scope);
  const fromBase = ancestors(commits, base);
  const fromHead = ancestors(commits, head);
  const ahead = [...fromHead].filter((sha) => !fromBase.has(sha)).map((sha) => commits.get(sha));
  const kept = ahead.filter((commit): commit is CommitRecord => commit !== undefined);
  kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const behindBy = [...fromBase].filter((sha) => !fromHead.has(sha) && commits.has(sha)).length;
  // The newest common ancestor: the first of `head`'s history that `base` reaches.
  const mergeBase = history(commits, head, commits.size + 1).find((commit) => fromBase.has(commit.sha))?.sha;
  return { mergeBase, ahead: kept, behindBy };
}
