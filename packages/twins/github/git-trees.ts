/**
 * GitHub's trees of the Git database API (issue #84), kept per repository (git-objects.ts):
 * `POST …/git/trees` (`git.createTree`: `tree` entries of `path`, `mode`, `type`, and `sha` (a blob
 * or tree held; `null` removes the path) or `content` (a new blob); `base_tree` the tree they
 * change) keeps the tree and answers it (`201`), `GET …/git/trees/{tree_sha}` (a tree's SHA, or a
 * commit's, or a branch's or tag's name; `recursive` lists every entry below) reads it.
 *
 * GitHub's words, as its users report its answers (Octokit's, PyGithub's, github3.py's issues):
 * `422 base_tree is not a valid tree oid`, `422 tree.sha {sha} is not a valid blob` (`… tree` for a
 * tree entry). The twin's own bounds (SPEC §2.24): at most {@link MAX_ENTRIES} entries sent, at
 * most {@link MAX_FILES} files in the tree made (`422`, code `tree_too_large`).
 *
 * @module
 */
import type { FlowError, FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { base64Size, blobOf, directories, type FlatTree, gitSha, keepTree, subtree, treeOf } from './git-objects.js';
import { commitOf, keepBlob, treeSha } from './history.js';
import type { RepoPlace } from './pushes.js';
import { notSupplied, shaOf } from './refs.js';

/** Most entries one `git.createTree` takes. */
export const MAX_ENTRIES = 10_000;
/** Most files a tree made holds. */
export const MAX_FILES = 100_000;
const SHA = /^[0-9a-f]{40}$/i;
const MODES = new Set(['100644', '100755', '040000', '160000', '120000']);

function refused(message: string, code?: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message, ...(code === undefined ? {} : { code }) } };
}

/** Whether a git tree can hold `path`: each component not empty, `.`, `..` or `.git`, no NUL, at most 4,096 characters. */
function isTreePath(path: string): boolean {
  if (path.length > 4096) return false;
  return path
    .split('/')
    .every(
      (part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git' && !part.includes('\0'),
    );
}

/** `tree` with nothing at `path`: neither a file there nor below it. */
function removed(tree: FlatTree, path: string): void {
  delete tree[path];
  for (const at of Object.keys(tree)) if (at.startsWith(`${path}/`)) delete tree[at];
}

/** `tree` with the file `path` the blob `sha`, a file in the way of its directories removed. */
function placed(tree: FlatTree, path: string, sha: string): void {
  removed(tree, path);
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length; depth++) delete tree[parts.slice(0, depth).join('/')];
  tree[path] = sha;
}

/** One entry of a `git.createTree`, applied to `tree`; or the answer refusing it. */
async function applied(
  state: FlowState,
  scope: string,
  tree: FlatTree,
  sent: unknown,
): Promise<{ error: FlowError } | undefined> {
  const one = (sent ?? {}) as Record<string, unknown>;
  const { path, mode, type, sha, content } = one;
  if (typeof path !== 'string' || !isTreePath(path)) return refused('tree.path contains a malformed path component');
  if (typeof mode !== 'string' || !MODES.has(mode))
    return refused(`tree.mode ${String(mode).slice(0, 20)} is not valid`);
  if (type !== 'blob' && type !== 'tree' && type !== 'commit') return refused('tree.type must be blob, tree or commit');
  if (sha !== undefined && content !== undefined) {
    return refused('Must supply either tree.sha or tree.content. Request will be rejected if both are present.');
  }
  if (sha === null) {
    removed(tree, path);
    return undefined;
  }
  if (typeof content === 'string') {
    if (type !== 'blob') return refused('tree.content is only for a blob');
    const bytes = new TextEncoder().encode(content);
    const blob = await gitSha('blob', bytes);
    await keepBlob(state, scope, blob, btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')));
    placed(tree, path, blob);
    return undefined;
  }
  if (typeof sha !== 'string') return refused('Must supply either tree.sha or tree.content.');
  // A submodule's commit: the twin's trees hold files only.
  if (type === 'commit') return refused('tree.type commit (a submodule) is not kept by the twin', 'twin_unsupported');
  if (type === 'tree') {
    const below = SHA.test(sha) ? await treeOf(state, scope, sha) : undefined;
    if (below === undefined) return refused(`tree.sha ${sha.slice(0, 64)} is not a valid tree`);
    removed(tree, path);
    for (const [at, blob] of Object.entries(below)) tree[`${path}/${at}`] = blob;
    return undefined;
  }
  if (!SHA.test(sha) || (await blobOf(state, scope, sha)) === undefined) {
    return refused(`tree.sha ${sha.slice(0, 64)} is not a valid blob`);
  }
  placed(tree, path, sha.toLowerCase());
  return undefined;
}

/** `git.createTree`: the tree kept and answered, or GitHub's refusal (nothing kept). */
export async function createTree(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
): Promise<OwnAnswer> {
  if (!Array.isArray(sent.tree)) return notSupplied(['tree']);
  if (sent.tree.length > MAX_ENTRIES) {
    return refused(
      `A tree is made of at most ${MAX_ENTRIES} entries at once; send it in parts (base_tree).`,
      'tree_too_large',
    );
  }
  let tree: FlatTree = {};
  if (sent.base_tree !== undefined && sent.base_tree !== null) {
    const base =
      typeof sent.base_tree === 'string' && SHA.test(sent.base_tree)
        ? await treeOf(state, place.scope, sent.base_tree)
        : undefined;
    if (base === undefined) return refused('base_tree is not a valid tree oid');
    tree = { ...base };
  }
  // Blobs of `content` are kept as they are made: a refusal after them leaves unreferenced blobs, as git's do.
  for (const entry of sent.tree) {
    const answer = await applied(state, place.scope, tree, entry);
    if (answer !== undefined) return answer;
    if (Object.keys(tree).length > MAX_FILES) {
      return refused(`A tree holds at most ${MAX_FILES} files in the twin.`, 'tree_too_large');
    }
  }
  const sha = await keepTree(state, place.scope, tree);
  return { status: 201, body: await treeShown(state, place, sha, tree, false) };
}

/** A tree as GitHub answers it: its entries (every one below with `recursive`), by path. */
async function treeShown(
  state: FlowState,
  place: RepoPlace,
  sha: string,
  tree: FlatTree,
  recursive: boolean,
): Promise<Record<string, unknown>> {
  const full = String(place.repository?.full_name ?? `${place.values.owner}/${place.values.repo}`);
  const api = `https://api.github.com/repos/${full}/git`;
  const entries: Record<string, unknown>[] = [];
  const dirs = directories(tree).filter((dir) => recursive || !dir.includes('/'));
  for (const dir of dirs) {
    const at = await treeSha(subtree(tree, dir));
    entries.push({ path: dir, mode: '040000', type: 'tree', sha: at, url: `${api}/trees/${at}` });
  }
  for (const [path, blob] of Object.entries(tree)) {
    if (!recursive && path.includes('/')) continue;
    const size = base64Size((await blobOf(state, place.scope, blob)) ?? '');
    entries.push({ path, mode: '100644', type: 'blob', sha: blob, size, url: `${api}/blobs/${blob}` });
  }
  entries.sort((a, b) => (String(a.path) < String(b.path) ? -1 : 1));
  return { sha, url: `${api}/trees/${sha}`, tree: entries, truncated: false };
}

/** `git.getTree`: a tree held (by its SHA, a commit's SHA, or a branch's or tag's name), or `404`. */
export async function getTree(
  state: FlowState,
  place: RepoPlace,
  named: string,
  query: Record<string, unknown>,
): Promise<OwnAnswer> {
  const recursive =
    query.recursive !== undefined && query.recursive !== '' && query.recursive !== '0' && query.recursive !== 'false';
  let tree = SHA.test(named) ? await treeOf(state, place.scope, named) : undefined;
  let sha = named.toLowerCase();
  if (tree === undefined) {
    const commitSha = await shaOf(state, place.scope, named);
    const commit = commitSha === undefined ? undefined : await commitOf(state, place.scope, commitSha);
    if (commit !== undefined) {
      tree = commit.tree;
      sha = commit.tree_sha;
    }
  }
  if (tree === undefined) return { error: { status: 404, type: 'invalid_request_error', message: 'Not Found' } };
  return { status: 200, body: await treeShown(state, place, sha, tree, recursive) };
}
