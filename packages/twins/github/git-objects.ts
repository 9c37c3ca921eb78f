/**
 * The git objects GitHub's Git database API makes, kept per repository beside the history the
 * twin's writes make (history.ts): blobs by their git SHA-1 (history's own store), trees as the
 * history keeps a commit's (path → blob SHA, flat; a tree's SHA is history's `treeSha` of it, so a
 * commit's `tree_sha` is a tree held too), and annotated tags. Each lookup answers `undefined` for
 * an object the repository does not hold.
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';
import { blobReader, type CommitRecord, commitOf, commitsOf, type GitPerson, setPath, treeSha } from './history.js';
import type { RefsReader } from './refs.js';

const TREES = 'git-trees';
const TAGS = 'git-tags';
/** Most files and directories of the history's trees a tree SHA is looked for among (SPEC §2.24). */
const MAX_SUBTREES = 50_000;

/** A tree: each file's blob SHA by its path from the tree's root. */
export type FlatTree = Record<string, string>;

/** An annotated tag kept: what `git.createTag` was sent, its SHA and node id. */
export interface TagRecord {
  sha: string;
  node_id: string;
  tag: string;
  message: string;
  object: { sha: string; type: string };
  tagger: GitPerson;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Git's SHA-1 of an object of `kind` (`blob`, `commit`, `tag`) of `bytes`, as `git hash-object -t` makes it. */
export async function gitSha(kind: string, bytes: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`${kind} ${bytes.length}\0`);
  const all = new Uint8Array(head.length + bytes.length);
  all.set(head);
  all.set(bytes, head.length);
  return hex(await crypto.subtle.digest('SHA-1', all));
}

/** How many bytes base64 `text` carries. */
export function base64Size(text: string): number {
  const clean = text.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Each directory of `tree` (nested ones too) and its files, by their path from it: one pass, each file once per directory above it. */
export function subtrees(tree: Readonly<FlatTree>): Map<string, FlatTree> {
  const dirs = new Map<string, FlatTree>();
  for (const [path, sha] of Object.entries(tree)) {
    let at = path.indexOf('/');
    while (at !== -1) {
      const dir = path.slice(0, at);
      const below = dirs.get(dir) ?? {};
      dirs.set(dir, below);
      setPath(below, path.slice(at + 1), sha);
      at = path.indexOf('/', at + 1);
    }
  }
  return dirs;
}

/** Keeps `tree` and each of its directories' trees of the repository kept as `scope`; its SHA. */
export async function keepTree(state: FlowState, scope: string, tree: FlatTree): Promise<string> {
  const sha = await treeSha(tree);
  await state.keep(TREES, `${scope}:${sha}`, { tree });
  for (const below of subtrees(tree).values()) {
    await state.keep(TREES, `${scope}:${await treeSha(below)}`, { tree: below });
  }
  return sha;
}

/**
 * What finds a tree of the repository kept as `scope` by its SHA, its records read once: one
 * `git.createTree` made, a commit's, or a directory of a commit's (looked for among at most
 * {@link MAX_SUBTREES} files and directories of the history's).
 */
export async function treeFinder(
  state: RefsReader,
  scope: string,
): Promise<(sha: string) => Promise<FlatTree | undefined>> {
  const kept = await state.read<{ tree: FlatTree }>(TREES);
  const commits: CommitRecord[] = [...(await commitsOf(state, scope)).values()];
  return async (sha) => {
    const wanted = sha.toLowerCase();
    const found = kept.get(`${scope}:${wanted}`);
    if (found !== undefined) return found.tree;
    const whole = commits.find((commit) => commit.tree_sha === wanted);
    if (whole !== undefined) return whole.tree;
    let looked = 0;
    for (const commit of commits) {
      looked += Object.keys(commit.tree).length;
      if (looked > MAX_SUBTREES) return undefined;
      for (const below of subtrees(commit.tree).values()) {
        if (++looked > MAX_SUBTREES) return undefined;
        if ((await treeSha(below)) === wanted) return below;
      }
    }
    return undefined;
  };
}

/** The tree `sha` of the repository kept as `scope` ({@link treeFinder}). */
export async function treeOf(state: RefsReader, scope: string, sha: string): Promise<FlatTree | undefined> {
  return (await treeFinder(state, scope))(sha);
}

/** The base64 bytes of the blob `sha` of the repository kept as `scope` (`undefined`: none held). */
export async function blobOf(state: RefsReader, scope: string, sha: string): Promise<string | undefined> {
  return (await blobReader(state, scope))(sha.toLowerCase());
}

/** Keeps the annotated tag `tag` of the repository kept as `scope`. */
export async function keepTag(state: FlowState, scope: string, tag: TagRecord): Promise<void> {
  await state.keep(TAGS, `${scope}:${tag.sha}`, tag);
}

/** The annotated tag `sha` of the repository kept as `scope` (`undefined`: none held). */
export async function tagOf(state: RefsReader, scope: string, sha: string): Promise<TagRecord | undefined> {
  return (await state.read<TagRecord>(TAGS)).get(`${scope}:${sha.toLowerCase()}`);
}

/** What `sha` is to a ref of the repository kept as `scope`: a commit, or (`tag`: for a tag's ref) an annotated tag; `undefined`: neither held. */
export async function refTarget(
  state: RefsReader,
  scope: string,
  sha: string,
  tag: boolean,
): Promise<'commit' | 'tag' | undefined> {
  if ((await commitOf(state, scope, sha)) !== undefined) return 'commit';
  if (tag && (await tagOf(state, scope, sha)) !== undefined) return 'tag';
  return undefined;
}
