/**
 * A repository's files as GitHub's contents API keeps them (issue #73), per repository
 * (twin-own.ts), one tree (a `branch` or `ref` sent is not told apart): `PUT …/contents/{path}`
 * makes a file (`message`, base64 `content`; `201`) or changes one (its `sha` needed: none is
 * `422 … "sha" wasn't supplied.`, another `409 {path} does not match {sha}`; `200`), each file's
 * `sha` its git blob SHA-1 (`sha1("blob " + size + "\0" + bytes)`, as `git hash-object` makes it);
 * `GET` reads a file (`type: "file"`, `encoding: "base64"`) or a directory (its entries);
 * `DELETE` removes a file (its `sha` needed). Each write makes a commit on the branch sent (the
 * repository's default one else), whose parent is the commit the branch was at, moves the branch
 * to it and tells its `push` (refs.ts, pushes.ts).
 *
 * @module
 */

import type { FlowError, FlowState, MatchedOperation, OwnAnswer } from '@mockpoint/core/internal';
import { FILES } from './branch-files.js';
import { keepWrite } from './history.js';
import { NOT_FOUND } from './not-found.js';
import { pushedCommit, type RepoOperation, type RepoPlace } from './pushes.js';
import { branchSha, isRefName, moveBranch, notSupplied } from './refs.js';
import { shownRepo } from './repo-kept.js';

const CONTENTS = '/repos/{owner}/{repo}/contents/{path}';
const ROOT = '/repos/{owner}/{repo}/contents';

/**
 * The root directory's paths, which GitHub answers (`repos.getContent` of `path: ''` is sent as
 * `…/contents`, curl's may end in `/`) and its document does not list: twin-only operations.
 */
export const contentsRootPaths: Record<string, Record<string, unknown>> = Object.fromEntries(
  [ROOT, `${ROOT}/`].map((template) => [
    template,
    {
      get: {
        operationId: 'repos/get-content-root',
        summary: "Get the repository's root directory",
        responses: {
          '200': { description: 'The root directory', content: { 'application/json': { schema: { type: 'array' } } } },
          '404': { description: 'Resource not found' },
        },
      },
    },
  ]),
);

/** What GitHub answers a file's raw bytes in. */
const RAW_HEADERS = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * Whether `accept` asks for a file's raw bytes: GitHub's raw media type (`application/vnd.github.raw`,
 * `…raw+json`, `…v3.raw`, Octokit's `mediaType: { format: 'raw' }`), which answers them in place of the JSON.
 */
function isRaw(accept: string | undefined): boolean {
  return accept !== undefined && /application\/vnd\.github(\.v3)?\.raw\b/i.test(accept);
}

/** A file kept: its path, its bytes in base64, their size and blob SHA. */
export interface FileRecord {
  path: string;
  content: string;
  size: number;
  sha: string;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The bytes of base64 `text` (`undefined`: not base64). */
function decoded(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, '')), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Git's blob SHA-1 of `bytes`, as `git hash-object` makes it. */
async function blobSha(bytes: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(head.length + bytes.length);
  all.set(head);
  all.set(bytes, head.length);
  return hex(await crypto.subtle.digest('SHA-1', all));
}

/** An entry of the repository's tree as GitHub answers it (a file with its `content`, when asked). */
export function entry(
  values: Record<string, string>,
  path: string,
  file: FileRecord | undefined,
  withContent = false,
): Record<string, unknown> {
  const full = `${values.owner}/${shownRepo(String(values.repo))}`;
  const api = `https://api.github.com/repos/${full}`;
  const type = file === undefined ? 'dir' : 'file';
  const sha = file?.sha ?? '';
  const url = `${api}/contents/${path}?ref=main`;
  const html = `https://github.com/${full}/${type === 'file' ? 'blob' : 'tree'}/main/${path}`;
  const git = `${api}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`;
  const shown: Record<string, unknown> = {
    type,
    ...(withContent && file !== undefined
      ? { encoding: 'base64', content: `${(file.content.match(/.{1,60}/g) ?? []).join('\n')}\n` }
      : {}),
    size: file?.size ?? 0,
    name: path.split('/').at(-1) ?? path,
    path,
    sha,
    url,
    git_url: git,
    html_url: html,
    download_url: file === undefined ? null : `https://raw.githubusercontent.com/${full}/main/${path}`,
    _links: { self: url, git, html },
  };
  return shown;
}

/** The commit a write makes, as GitHub answers it beside the file, its parent the branch's commit before. */
function commit(
  state: FlowState,
  values: Record<string, string>,
  message: string,
  parent: string | undefined,
): Record<string, unknown> {
  const sha = hex(crypto.getRandomValues(new Uint8Array(20)).buffer);
  const name = `${values.owner}/${shownRepo(String(values.repo))}`;
  const api = `https://api.github.com/repos/${name}/git`;
  const web = `https://github.com/${name}`;
  const person = { name: 'The Octocat', email: 'octocat@github.com', date: new Date(state.now()).toISOString() };
  return {
    sha,
    node_id: state.newId('C_'),
    url: `${api}/commits/${sha}`,
    html_url: `${web}/commit/${sha}`,
    author: person,
    committer: person,
    message,
    tree: { url: `${api}/trees/${sha}`, sha },
    parents:
      parent === undefined
        ? []
        : [{ sha: parent, url: `${api}/commits/${parent}`, html_url: `${web}/commit/${parent}` }],
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
  };
}

function mismatch(path: string, sha: unknown): { error: FlowError } {
  const message = `${path} does not match ${String(sha).slice(0, 64)}`;
  return { error: { status: 409, type: 'invalid_request_error', message } };
}

function unprocessable(message: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message } };
}

/**
 * Whether a git tree can hold a file at `path`: each of its components not empty, `.`, `..` or
 * `.git`, and without NUL.
 */
function isTreePath(path: string): boolean {
  return path
    .split('/')
    .every(
      (part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git' && !part.includes('\0'),
    );
}

/**
 * Why a new file at `path` (kept as `key`) cannot be in the tree `all` holds: a file where one of
 * its directories would be, or a directory (files below it) where it would be.
 */
function treeConflict(all: Map<string, FileRecord>, key: string, path: string): string | undefined {
  const scope = key.slice(0, key.length - path.length);
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length; depth++) {
    const above = parts.slice(0, depth).join('/');
    if (all.has(`${scope}${above}`)) return `${path.slice(0, 200)} cannot be made: ${above.slice(0, 200)} is a file`;
  }
  const below = `${key}/`;
  for (const at of all.keys()) {
    if (at.startsWith(below)) return `${path.slice(0, 200)} cannot be made: it is a directory`;
  }
  return undefined;
}

/** The branch a write goes to: the one sent, else the repository's default. */
function branchOf(sent: Record<string, unknown>, place: RepoPlace): string {
  if (typeof sent.branch === 'string' && sent.branch !== '') return sent.branch.replace(/^refs\/heads\//, '');
  return String(place.repository?.default_branch ?? 'main');
}

/**
 * Why a write cannot go to the branch sent: a name git refuses (`422`), or a branch that does not
 * exist (GitHub's `404 Branch {name} not found`; the default branch is made by the first write).
 */
async function unwritable(
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<{ error: FlowError } | undefined> {
  const branch = branchOf(sent, place);
  const shown = JSON.stringify(branch.slice(0, 200)).slice(1, -1);
  if (!isRefName(`refs/heads/${branch}`)) {
    return unprocessable(`Branch name '${shown}' is not valid: a name git takes (git check-ref-format).`);
  }
  const fallback = String(place.repository?.default_branch ?? 'main');
  if (branch === fallback || (await branchSha(state, place.scope, branch)) !== undefined) return undefined;
  return { error: { status: 404, type: 'invalid_request_error', message: `Branch ${shown} not found` } };
}

/** Makes the commit of a write of `path` on the branch sent, moves the branch to it, tells the push. */
async function committed(
  matched: MatchedOperation,
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
  change: { path: string; kind: 'added' | 'modified' | 'removed'; file?: FileRecord },
): Promise<Record<string, unknown>> {
  const branch = branchOf(sent, place);
  const parent = await branchSha(state, place.scope, branch);
  const made = commit(state, matched.values, String(sent.message), parent);
  const { file } = change;
  await keepWrite(state, place.scope, made, { path: change.path, blob: file?.sha, content: file?.content });
  await moveBranch(state, place, branch, pushedCommit(made, change.path, change.kind));
  return made;
}

async function put(
  matched: MatchedOperation,
  sent: Record<string, unknown>,
  state: FlowState,
  at: { key: string; path: string; place: RepoPlace },
  all: Map<string, FileRecord>,
): Promise<OwnAnswer> {
  const known = all.get(at.key);
  const missing = ['message', 'content'].filter((field) => typeof sent[field] !== 'string');
  if (missing.length > 0) return notSupplied(missing);
  if (known !== undefined && (sent.sha === undefined || sent.sha === '')) return notSupplied(['sha']);
  const { key, path } = at;
  if (known !== undefined && sent.sha !== known.sha) return mismatch(path, sent.sha);
  if (known === undefined) {
    const conflict = treeConflict(all, key, path);
    if (conflict !== undefined) return unprocessable(conflict);
  }
  const bytes = decoded(String(sent.content));
  if (bytes === undefined) return unprocessable('content is not valid Base64');
  const record: FileRecord = {
    path,
    content: String(sent.content).replace(/\s+/g, ''),
    size: bytes.length,
    sha: await blobSha(bytes),
  };
  await state.keep(FILES, key, record);
  const kind = known === undefined ? 'added' : 'modified';
  const made = await committed(matched, sent, state, at.place, { path, kind, file: record });
  return {
    status: known === undefined ? 201 : 200,
    body: { content: entry(matched.values, path, record), commit: made },
  };
}

/**
 * `auto_init`: the repository's first commit, `Initial commit`, on its default branch, of a
 * `README.md` of its name (and description), as GitHub makes it; its branch's ref made.
 */
export async function initialCommit(state: FlowState, place: RepoPlace): Promise<void> {
  const repository = place.repository ?? {};
  const description = typeof repository.description === 'string' ? `${repository.description}\n` : '';
  const bytes = new TextEncoder().encode(`# ${String(repository.name)}\n${description}`);
  const content = btoa(String.fromCharCode(...bytes));
  const record: FileRecord = { path: 'README.md', content, size: bytes.length, sha: await blobSha(bytes) };
  await state.keep(FILES, `${place.scope}:README.md`, record);
  const made = commit(state, place.values, 'Initial commit', undefined);
  await keepWrite(state, place.scope, made, { path: record.path, blob: record.sha, content });
  const branch = String(repository.default_branch ?? 'main');
  await moveBranch(state, place, branch, pushedCommit(made, record.path, 'added'));
}

/** The bytes of the file at `path` of the repository kept as `scope` (`undefined`: none). */
export async function fileBytes(state: FlowState, scope: string, path: string): Promise<Uint8Array | undefined> {
  const file = (await state.read<FileRecord>(FILES)).get(`${scope}:${path}`);
  return file === undefined ? undefined : decoded(file.content);
}

/** The files of the repository kept as `scope`, by their path. */
export async function filesOf(state: FlowState, scope: string): Promise<Map<string, FileRecord>> {
  const files = new Map<string, FileRecord>();
  for (const [key, file] of await state.read<FileRecord>(FILES)) {
    if (key.startsWith(`${scope}:`)) files.set(key.slice(scope.length + 1), file);
  }
  return files;
}

/**
 * The root directory: its files and directories by name; a repository without files is GitHub's
 * `404 This repository is empty.`; `undefined` below a repository never made (the engine's 404).
 */
async function rootDirectory(
  matched: MatchedOperation,
  state: FlowState,
  place: RepoPlace,
): Promise<OwnAnswer | undefined> {
  if (place.repository === undefined) return undefined;
  const names = new Map<string, FileRecord | undefined>();
  for (const [path, file] of await filesOf(state, place.scope)) {
    const [name = '', ...deeper] = path.split('/');
    names.set(name, deeper.length === 0 ? file : undefined);
  }
  if (names.size === 0) {
    return { error: { status: 404, type: 'invalid_request_error', message: 'This repository is empty.' } };
  }
  return { status: 200, body: [...names.keys()].sort().map((name) => entry(matched.values, name, names.get(name))) };
}

/** GitHub's contents of the repository kept as `scope`; `undefined`: not a contents operation. */
export const githubContents: RepoOperation = async (matched, request, state, place) => {
  const sent = request.body;
  const { scope } = place;
  const root = matched.op.template === ROOT || matched.op.template === `${ROOT}/`;
  if (matched.op.template !== CONTENTS && !root) return undefined;
  const path = (matched.values.path ?? '').replace(/^\/+|\/+$/g, '');
  if (root) return matched.op.method === 'GET' ? rootDirectory(matched, state, place) : undefined;
  if (path === '') return undefined;
  const all = await state.read<FileRecord>(FILES);
  const key = `${scope}:${path}`;
  const known = all.get(key);
  const { method } = matched.op;
  if (method === 'PUT' || method === 'DELETE') {
    const refused = await unwritable(sent, state, place);
    if (refused !== undefined) return refused;
  }
  if (method === 'PUT') {
    if (!isTreePath(path)) return unprocessable('path contains a malformed path component');
    return put(matched, sent, state, { key, path, place }, all);
  }
  if (method === 'DELETE') {
    if (known === undefined) return { error: NOT_FOUND };
    const missing = ['message', 'sha'].filter((field) => typeof sent[field] !== 'string' || sent[field] === '');
    if (missing.length > 0) return notSupplied(missing);
    if (sent.sha !== known.sha) return mismatch(path, sent.sha);
    await state.keep(FILES, key, undefined);
    const made = await committed(matched, sent, state, place, { path, kind: 'removed' });
    return { status: 200, body: { content: null, commit: made } };
  }
  if (method !== 'GET') return undefined;
  if (known !== undefined && isRaw(request.header('accept'))) {
    return { status: 200, bytes: decoded(known.content) ?? new Uint8Array(), headers: RAW_HEADERS };
  }
  if (known !== undefined) return { status: 200, body: entry(matched.values, path, known, true) };
  // A directory: the files and directories right below it, by name.
  const prefix = `${scope}:${path}/`;
  const names = new Map<string, FileRecord | undefined>();
  for (const [at, file] of all) {
    if (!at.startsWith(prefix)) continue;
    const [name = '', ...deeper] = at.slice(prefix.length).split('/');
    names.set(name, deeper.length === 0 ? file : undefined);
  }
  if (names.size === 0) return { error: NOT_FOUND };
  const entries = [...names.keys()].sort().map((name) => entry(matched.values, `${path}/${name}`, names.get(name)));
  return { status: 200, body: entries };
};
