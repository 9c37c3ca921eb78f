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
import { base64Size, type FlatTree, gitSha, keepTree, subtrees, treeFinder, treeOf } from './git-objects.js';
import { blobReader, commitOf, keepBlob, setPath, treeSha } from './history.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoPlace } from './pushes.js';
import { notSupplied, shaOf } from './refs.js';

/** Most entries one `git.createTree` takes. */
const MAX_ENTRIES = 10_000;
/** Most files a tree made holds. */
const MAX_FILES = 100_000;
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

/** A tree being made: each name a file's blob SHA or a directory. */
type Node = Map<string, Node | string>;

/** The directory `parts` names below `root`, made (a file in its way replaced) when `make`. */
function dirAt(root: Node, parts: readonly string[], make: boolean): Node | undefined {
  let node = root;
  for (const part of parts) {
    const next = node.get(part);
    if (next instanceof Map) node = next;
    else if (!make) return undefined;
    else {
      const made: Node = new Map();
      node.set(part, made);
      node = made;
    }
  }
  return node;
}

/** `path` set to `value` (a blob SHA, or a directory) below `root`. */
function put(root: Node, path: string, value: Node | string): void {
  const parts = path.split('/');
  const name = parts.pop() as string;
  (dirAt(root, parts, true) as Node).set(name, value);
}

/** The tree of `flat` to change. */
function nodeOf(flat: Readonly<FlatTree>): Node {
  const root: Node = new Map();
  for (const [path, sha] of Object.entries(flat)) put(root, path, sha);
  return root;
}

/** The files below `node`, by path (a directory left empty is none, as in git). */
function flatOf(node: Node, prefix = '', into: FlatTree = {}): FlatTree {
  for (const [name, value] of node) {
    if (value instanceof Map) flatOf(value, `${prefix}${name}/`, into);
    else setPath(into, `${prefix}${name}`, value);
  }
  return into;
}

/** What one `git.createTree` reads, once: the blobs and trees held, and the blobs it made. */
interface Held {
  blob: (sha: string) => string | undefined;
  tree: (sha: string) => Promise<FlatTree | undefined>;
  made: Set<string>;
  /** Files placed so far (a subtree's each), against {@link MAX_FILES}. */
  placed: number;
}

/** One entry of a `git.createTree`, applied to `root`; or the answer refusing it. */
async function applied(
  state: FlowState,
  scope: string,
  root: Node,
  held: Held,
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
    const parts = path.split('/');
    const name = parts.pop() as string;
    dirAt(root, parts, false)?.delete(name);
    return undefined;
  }
  held.placed++;
  if (typeof content === 'string') {
    if (type !== 'blob') return refused('tree.content is only for a blob');
    const bytes = new TextEncoder().encode(content);
    const blob = await gitSha('blob', bytes);
    if (held.blob(blob) === undefined && !held.made.has(blob)) {
      const base64 = btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
      await keepBlob(state, scope, { sha: blob, content: base64 }, true);
      held.made.add(blob);
    }
    put(root, path, blob);
    return undefined;
  }
  if (typeof sha !== 'string') return refused('Must supply either tree.sha or tree.content.');
  // A submodule's commit: the twin's trees hold files only.
  if (type === 'commit') return refused('tree.type commit (a submodule) is not kept by the twin', 'twin_unsupported');
  if (type === 'tree') {
    const below = SHA.test(sha) ? await held.tree(sha) : undefined;
    if (below === undefined) return refused(`tree.sha ${sha.slice(0, 64)} is not a valid tree`);
    held.placed += Object.keys(below).length;
    if (held.placed <= MAX_FILES) put(root, path, nodeOf(below));
    return undefined;
  }
  const blob = sha.toLowerCase();
  if (!SHA.test(sha) || (held.blob(blob) === undefined && !held.made.has(blob))) {
    return refused(`tree.sha ${sha.slice(0, 64)} is not a valid blob`);
  }
  put(root, path, blob);
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
  const held: Held = {
    blob: await blobReader(state, place.scope),
    tree: await treeFinder(state, place.scope),
    made: new Set(),
    placed: 0,
  };
  let base: FlatTree = {};
  if (sent.base_tree !== undefined && sent.base_tree !== null) {
    const found =
      typeof sent.base_tree === 'string' && SHA.test(sent.base_tree) ? await held.tree(sent.base_tree) : undefined;
    if (found === undefined) return refused('base_tree is not a valid tree oid');
    base = found;
  }
  held.placed = Object.keys(base).length;
  const root = nodeOf(base);
  // Blobs of `content` are kept as they are made: a refusal after them leaves unreferenced blobs, as git's do.
  for (const entry of sent.tree) {
    const answer = await applied(state, place.scope, root, held, entry);
    if (answer !== undefined) return answer;
    if (held.placed > MAX_FILES) {
      return refused(`A tree holds at most ${MAX_FILES} files in the twin.`, 'tree_too_large');
    }
  }
  const tree = flatOf(root);
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
  for (const [dir, below] of subtrees(tree)) {
    if (!recursive && dir.includes('/')) continue;
    const at = await treeSha(below);
    entries.push({ path: dir, mode: '040000', type: 'tree', sha: at, url: `${api}/trees/${at}` });
  }
  const blob = await blobReader(state, place.scope);
  for (const [path, sha] of Object.entries(tree)) {
    if (!recursive && path.includes('/')) continue;
    const size = base64Size(blob(sha) ?? '');
    entries.push({ path, mode: '100644', type: 'blob', sha, size, url: `${api}/blobs/${sha}` });
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
  if (tree === undefined) return { error: NOT_FOUND };
  return { status: 200, body: await treeShown(state, place, sha, tree, recursive) };
}
