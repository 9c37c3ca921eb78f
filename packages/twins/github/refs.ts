/**
 * A repository's git refs as GitHub's Git database API keeps them (issue #73), by their full
 * name (`refs/heads/feature`), per repository (twin-own.ts): `POST …/git/refs` makes one (`ref`,
 * `sha`; an existing one `422 Reference already exists`), `GET …/git/ref/{ref}` reads it
 * (`heads/feature`, sent encoded as `heads%2Ffeature` by Octokit), `GET …/git/matching-refs/{ref}`
 * lists those its name starts, `PATCH …/git/refs/{ref}` moves it (`sha`; a move that is not a
 * fast-forward is `422 Update is not a fast forward` unless `force: true`), `DELETE` removes it;
 * a `sha` the repository does not hold (a commit, or an annotated tag for `refs/tags/…`) is `422
 * Object does not exist` (GitHub's words, octokit.js issue 562; "Update is not a fast forward":
 * octokit.js issue 21), unless the twin's `unseen` is `"examples"`. A move of the default branch
 * makes the files the contents API reads those of its new commit (branch-files.ts);
 * each a branch's or tag's `create`, `push` or `delete` (pushes.ts). A file written moves
 * its branch (`moveBranch`), keeping the commit it made with the ref.
 *
 * @module
 */

import type { FlowError, FlowState, MatchedOperation, OwnAnswer } from '@mockpoint/core/internal';
import { filesAt } from './branch-files.js';
import { refTarget } from './git-objects.js';
import { compared } from './history.js';
import { EMPTY_REPOSITORY, NOT_FOUND } from './not-found.js';
import { type PushedCommit, type RepoOperation, type RepoPlace, tellPush } from './pushes.js';
import { shownRepo } from './repo-kept.js';

const REFS = 'refs';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const GIT = '/repos/{owner}/{repo}/git';

/** A ref kept: its full name, the commit it points at, its node id. */
interface RefRecord {
  ref: string;
  sha: string;
  node_id: string;
  /** The commit `sha` is, when the twin made it (a file written). */
  commit?: PushedCommit;
  /** `tag`: `sha` is an annotated tag's (`git.createTag`), not a commit's. */
  type?: 'tag';
}

function refused(message: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message } };
}

/** GitHub's refusal of a request missing fields (`Invalid request.\n\n"sha" wasn't supplied.`). */
export function notSupplied(missing: readonly string[]): { error: FlowError } {
  const names = missing.map((field) => `"${field}"`).join(', ');
  return refused(`Invalid request.\n\n${names} ${missing.length === 1 ? "wasn't" : "weren't"} supplied.`);
}

/** A ref as GitHub answers it, at the path's repository. */
function shown(record: RefRecord, values: Record<string, string>): Record<string, unknown> {
  const api = `https://api.github.com/repos/${values.owner}/${shownRepo(String(values.repo))}/git`;
  return {
    ref: record.ref,
    node_id: record.node_id,
    url: `${api}/${record.ref}`,
    object: {
      sha: record.sha,
      type: record.type ?? 'commit',
      url: `${api}/${record.type === 'tag' ? 'tags' : 'commits'}/${record.sha}`,
    },
  };
}

/**
 * Whether `ref` is a full ref name git takes (`git check-ref-format`): `refs/`, a kind, a name, at
 * most 1,000 characters; no control characters, space, `~ ^ : ? * [ \`, `..`, `@{`, empty component,
 * component starting with `.` or ending with `.lock`, no end in `.`; and text that UTF-8 can carry
 * (no lone surrogate), so that every name taken can be sent back in a path.
 */
export function isRefName(ref: string): boolean {
  if (ref.length > 1000 || !/^refs\/[^/]+\/./.test(ref) || LONE_SURROGATE.test(ref)) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\.$/.test(ref)) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** A commit's SHA as GitHub takes one: 40 hex digits (a ref may point at a commit the twin did not make). */
function isSha(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{40}$/i.test(value);
}

/** What reads the refs kept: a flow's state, or a create's kit. */
export type RefsReader = Pick<FlowState, 'read'>;

/** The refs of the repository kept as `scope`, by full name. */
async function refsOf(state: RefsReader, scope: string): Promise<Map<string, RefRecord>> {
  const all = await state.read<RefRecord>(REFS);
  const prefix = `${scope}:`;
  return new Map([...all].filter(([key]) => key.startsWith(prefix)).map(([, record]) => [record.ref, record]));
}

/** The commit of `sha` the twin made, if a ref of the repository points at it. */
function commitOf(refs: Map<string, RefRecord>, sha: string): PushedCommit | undefined {
  return [...refs.values()].find((record) => record.sha === sha && record.commit !== undefined)?.commit;
}

/**
 * Moves the branch `branch` to the commit a file's write made (making it when it is new), and
 * tells its `create` and `push`.
 */
export async function moveBranch(
  state: FlowState,
  place: RepoPlace,
  branch: string,
  commit: PushedCommit,
): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const known = (await refsOf(state, place.scope)).get(ref);
  const record: RefRecord = { ref, sha: commit.id, node_id: known?.node_id ?? state.newId('REF_'), commit };
  await state.keep(REFS, `${place.scope}:${ref}`, record);
  const before = known === undefined ? {} : { before: known.sha };
  await tellPush(state, place, { ref, ...before, after: commit.id, commit, made: true });
}

/** Whether the twin holds any ref of the repository kept as `scope` (a file written, `git.createRef`). */
export async function holdsRefs(state: RefsReader, scope: string): Promise<boolean> {
  return (await refsOf(state, scope)).size > 0;
}

/** The SHA the branch `branch` points at (`undefined`: none made). */
export async function branchSha(state: RefsReader, scope: string, branch: string): Promise<string | undefined> {
  return (await refsOf(state, scope)).get(`refs/heads/${branch}`)?.sha;
}

/**
 * The SHA `ref` names in the repository kept as `scope`: a commit's SHA as sent (the twin keeps
 * no commits to look up), else that of the branch, or the tag, of that name (`undefined`: none held).
 */
export async function shaOf(state: FlowState, scope: string, ref: string): Promise<string | undefined> {
  if (isSha(ref)) return ref.toLowerCase();
  const refs = await refsOf(state, scope);
  const names = [`refs/heads/${ref}`, `refs/tags/${ref}`, `refs/${ref}`];
  return names.map((name) => refs.get(name)?.sha).find((sha) => sha !== undefined);
}

/**
 * How GitHub's archive links name `ref` of the repository kept as `scope`: a commit's SHA as sent,
 * else the full name of the branch, or the tag, of that name (`undefined`: none held).
 */
export async function refNamed(state: FlowState, scope: string, ref: string): Promise<string | undefined> {
  if (isSha(ref)) return ref.toLowerCase();
  const refs = await refsOf(state, scope);
  return [`refs/heads/${ref}`, `refs/tags/${ref}`, ref].find((name) => name.startsWith('refs/') && refs.has(name));
}

/**
 * A release's tag as GitHub makes it when the release is published: `refs/tags/{tag}` at the commit
 * `target` names (its `target_commitish`: a branch or a SHA; the default branch when none), unless
 * the tag exists, or the name is none git takes, or the target names no commit the twin holds.
 * Its `create` and `push` are told. What undoes it (the release refused), `undefined`: none made.
 */
export async function tagRelease(
  state: FlowState,
  place: RepoPlace,
  tag: string,
  target: unknown,
): Promise<(() => Promise<void>) | undefined> {
  const ref = `refs/tags/${tag}`;
  if (!isRefName(ref)) return undefined;
  const refs = await refsOf(state, place.scope);
  if (refs.has(ref)) return undefined;
  const named =
    typeof target === 'string' && target !== '' ? target : String(place.repository?.default_branch ?? 'main');
  const sha = await shaOf(state, place.scope, named);
  if (sha === undefined) return undefined;
  const commit = commitOf(refs, sha);
  const record: RefRecord = { ref, sha, node_id: state.newId('REF_'), ...(commit === undefined ? {} : { commit }) };
  const key = `${place.scope}:${ref}`;
  await state.keep(REFS, key, record);
  await tellPush(state, place, { ref, after: sha, ...(commit === undefined ? {} : { commit }) });
  return () => state.keep(REFS, key, undefined);
}

/** The branches of the repository kept as `scope`, by name: the SHA each points at and the commit it is when the twin made it. */
export async function branchesOf(
  state: FlowState,
  scope: string,
): Promise<Map<string, { sha: string; commit: PushedCommit | undefined }>> {
  const refs = await refsOf(state, scope);
  const branches = new Map<string, { sha: string; commit: PushedCommit | undefined }>();
  for (const record of refs.values()) {
    if (!record.ref.startsWith('refs/heads/')) continue;
    branches.set(record.ref.slice('refs/heads/'.length), { sha: record.sha, commit: commitOf(refs, record.sha) });
  }
  return branches;
}

/**
 * The branches of the repository kept as `scope` that point at `sha`, the commit it is when the
 * twin made it, and whether any of its refs (a branch, a tag) points at it.
 */
export async function commitAt(
  state: FlowState,
  scope: string,
  sha: string,
): Promise<{ branches: string[]; commit: PushedCommit | undefined; referenced: boolean }> {
  const refs = await refsOf(state, scope);
  const at = [...refs.values()].filter((record) => record.sha === sha);
  const branches = at
    .filter((record) => record.ref.startsWith('refs/heads/'))
    .map((record) => record.ref.slice('refs/heads/'.length));
  return { branches, commit: commitOf(refs, sha), referenced: at.length > 0 };
}

/** Whether moving `known` to `sha` (a `target`) is a fast-forward: a commit its commit is an ancestor of, or the same. */
async function fastForward(
  state: FlowState,
  scope: string,
  known: RefRecord,
  sha: string,
  target: 'commit' | 'tag',
): Promise<boolean> {
  if (known.sha === sha) return true;
  if (known.type === 'tag' || target === 'tag') return false;
  // A ref at a commit the repository does not hold (made with `unseen: "examples"`): none to be behind.
  return (await compared(state, scope, known.sha, sha)).behindBy === 0;
}

/** The contents API's files made those of `sha` where `ref` is the default branch. */
async function defaultMoved(state: FlowState, place: RepoPlace, ref: string, sha: string): Promise<void> {
  if (ref !== `refs/heads/${String(place.repository?.default_branch ?? 'main')}`) return;
  await filesAt(state, place.scope, sha);
}

async function createRef(
  matched: MatchedOperation,
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<OwnAnswer> {
  const { scope } = place;
  const missing = ['ref', 'sha'].filter((field) => sent[field] === undefined || sent[field] === '');
  if (missing.length > 0) return notSupplied(missing);
  const ref = String(sent.ref);
  if (!isRefName(ref)) {
    const shown = JSON.stringify(ref.slice(0, 200)).slice(1, -1);
    return refused(
      `Reference name '${shown}' is not valid: it starts with refs/, has two slashes, and is a name git takes (git check-ref-format).`,
    );
  }
  const refs = await refsOf(state, scope);
  // A repository with no commit yet has no object to point a ref at: GitHub's 409.
  if (refs.size === 0 && !state.examples && place.repository !== undefined) return { error: EMPTY_REPOSITORY };
  if (!isSha(sent.sha)) return refused('Object does not exist');
  if (refs.has(ref)) return refused('Reference already exists');
  const sha = sent.sha.toLowerCase();
  const target = state.examples ? 'commit' : await refTarget(state, scope, sha, ref.startsWith('refs/tags/'));
  if (target === undefined) return refused('Object does not exist');
  const commit = commitOf(refs, sha);
  const record: RefRecord = {
    ref,
    sha,
    node_id: state.newId('REF_'),
    ...(commit === undefined ? {} : { commit }),
    ...(target === 'tag' ? { type: target } : {}),
  };
  await state.keep(REFS, `${scope}:${ref}`, record);
  await defaultMoved(state, place, ref, sha);
  await tellPush(state, place, { ref, after: sha, ...(commit === undefined ? {} : { commit }) });
  return { status: 201, body: shown(record, matched.values) };
}

/**
 * The paths GitHub answers beside its document, which lists them under no operation: `GET
 * …/git/refs` (and `…/git/refs/`) lists every ref of the repository, `GET …/git/refs/{ref}` reads
 * the ref of that full name, or lists those below it (`heads`: every branch): twin-only operations.
 */
export const refsListPaths: Record<string, Record<string, unknown>> = Object.fromEntries(
  [`${GIT}/refs`, `${GIT}/refs/`, `${GIT}/refs/{ref}`].map((template) => [
    template,
    {
      get: {
        operationId: template.endsWith('{ref}') ? 'git/get-refs-below' : 'git/list-refs',
        summary: 'List references',
        ...(template.endsWith('{ref}')
          ? {
              parameters: [
                { name: 'ref', in: 'path', required: true, schema: { type: 'string' }, 'x-multi-segment': true },
              ],
            }
          : {}),
        responses: {
          '200': { description: 'The references', content: { 'application/json': { schema: { type: 'array' } } } },
          '404': { description: 'Resource not found' },
        },
      },
    },
  ]),
);

/** The refs of the repository whose name starts with `prefix`, by name, as a list the engine pages. */
async function refList(matched: MatchedOperation, state: FlowState, scope: string, prefix: string): Promise<OwnAnswer> {
  const refs = [...(await refsOf(state, scope)).values()].filter((record) => record.ref.startsWith(prefix));
  refs.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  return { list: refs.map((record) => shown(record, matched.values)) };
}

const MISSING: { error: FlowError } = { error: NOT_FOUND };

/** GitHub's git refs of the repository kept as `scope`; `undefined`: not a ref's operation. */
export const githubRefs: RepoOperation = async (matched, request, state, place) => {
  const sent = request.body;
  const { method, template } = matched.op;
  if (!template.startsWith(`${GIT}/`)) return undefined;
  if (template === `${GIT}/refs` && method === 'POST') return createRef(matched, sent, state, place);
  const { scope } = place;
  if ((template === `${GIT}/refs` || template === `${GIT}/refs/`) && method === 'GET') {
    // GitHub's list of a repository with no commit yet: `409 Git Repository is empty.`
    const answered = await refList(matched, state, scope, 'refs/');
    if ('list' in answered && answered.list.length === 0 && place.repository !== undefined) {
      return { error: EMPTY_REPOSITORY };
    }
    return answered;
  }
  const name = `refs/${matched.values.ref ?? ''}`;
  if (template === `${GIT}/refs/{ref}` && method === 'GET') {
    const exact = (await refsOf(state, scope)).get(name);
    if (exact !== undefined) return { status: 200, body: shown(exact, matched.values) };
    const below = await refList(matched, state, scope, `${name.replace(/\/+$/, '')}/`);
    return 'list' in below && below.list.length === 0 ? MISSING : below;
  }
  if (template === `${GIT}/matching-refs/{ref}` && method === 'GET') {
    const refs = [...(await refsOf(state, scope)).values()].filter((record) => record.ref.startsWith(name));
    refs.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
    return { status: 200, body: refs.map((record) => shown(record, matched.values)) };
  }
  const known = (await refsOf(state, scope)).get(name);
  if (template === `${GIT}/ref/{ref}` && method === 'GET') {
    return known === undefined ? { error: NOT_FOUND } : { status: 200, body: shown(known, matched.values) };
  }
  if (template !== `${GIT}/refs/{ref}`) return undefined;
  if (method !== 'PATCH' && method !== 'DELETE') return undefined;
  // A ref never made: refused before a value is (flows.ts's `missingFirst`).
  if (known === undefined) return { error: { ...refused('Reference does not exist').error, missing: true } };
  if (method === 'DELETE') {
    await state.keep(REFS, `${scope}:${name}`, undefined);
    await tellPush(state, place, { ref: name, before: known.sha });
    return { status: 204 };
  }
  if (sent.sha === undefined || sent.sha === '') return notSupplied(['sha']);
  if (!isSha(sent.sha)) return refused('Object does not exist');
  const sha = sent.sha.toLowerCase();
  const forced = sent.force === true;
  const target = state.examples ? 'commit' : await refTarget(state, scope, sha, name.startsWith('refs/tags/'));
  if (target === undefined) return refused('Object does not exist');
  if (!forced && !state.examples && !(await fastForward(state, scope, known, sha, target))) {
    return refused('Update is not a fast forward');
  }
  const { commit: _had, type: _was, ...rest } = known;
  const commit = commitOf(await refsOf(state, scope), sha);
  const moved: RefRecord = {
    ...rest,
    sha,
    ...(commit === undefined ? {} : { commit }),
    ...(target === 'tag' ? { type: target } : {}),
  };
  await state.keep(REFS, `${scope}:${name}`, moved);
  await defaultMoved(state, place, name, sha);
  // A move to where it is pushes nothing.
  if (sha !== known.sha) {
    await tellPush(state, place, {
      ref: name,
      before: known.sha,
      after: sha,
      forced,
      ...(commit === undefined ? {} : { commit }),
    });
  }
  return { status: 200, body: shown(moved, matched.values) };
};
