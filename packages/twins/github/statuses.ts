/**
 * A repository's commit statuses as GitHub keeps them (issue #73), per repository and SHA
 * (twin-own.ts): `POST …/statuses/{sha}` adds one (`state` one of error, failure, pending,
 * success; `context` "default" when none is sent; made by the authenticated user; a `sha` of no
 * commit the repository holds, in its history or at a ref, `422 No commit found for SHA`) and tells its
 * `status` event; `GET …/commits/{ref}/statuses` lists a ref's newest first, and
 * `GET …/commits/{ref}/status` combines them: the latest of each context, `failure` if one is an
 * error or a failure, else `pending` if one is pending or there are none, else `success`. A
 * `ref` is a SHA, or a branch or tag the twin holds (refs.ts); another lists nothing and
 * has no combined status (`404`).
 *
 * @module
 */

import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { commitOf } from './history.js';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { commitAt, shaOf } from './refs.js';
import { shownRepo } from './repo-kept.js';

const KIND = 'statuses';
const REPO = '/repos/{owner}/{repo}';
const STATES = ['error', 'failure', 'pending', 'success'];

/** One status kept: the SHA it is of, the status as answered. */
interface StatusRecord {
  sha: string;
  status: Record<string, unknown>;
}

/** GitHub's answer for a ref that names no commit it has. */
export function noCommit(ref: string): { error: FlowError } {
  return {
    error: { status: 422, type: 'invalid_request_error', message: `No commit found for SHA: ${ref.slice(0, 200)}` },
  };
}

/** The repository's full name and API root, as its URLs say them. */
export function apiOf(place: RepoPlace): { full: string; api: string } {
  const full = `${place.values.owner}/${shownRepo(String(place.values.repo))}`;
  return { full, api: `https://api.github.com/repos/${full}` };
}

/** The statuses of the repository kept as `scope` at `sha`, newest first. */
async function statusesAt(state: FlowState, scope: string, sha: string): Promise<Record<string, unknown>[]> {
  const all = [...(await state.read<StatusRecord>(KIND))].filter(
    ([key, record]) => key.startsWith(`${scope}:`) && record.sha === sha,
  );
  return all.map(([, record]) => record.status).reverse();
}

/** {@link noCommit} of the commit a path names: refused before a value is (flows.ts's `missingFirst`). */
function missingCommit(ref: string): { error: FlowError } {
  return { error: { ...noCommit(ref).error, missing: true } };
}

function refused(field: string, code: string, message?: string): { error: FlowError } {
  return { error: validationFailed(code, [{ resource: 'Status', code, field, ...(message ? { message } : {}) }]) };
}

async function create(sha: string, body: Record<string, unknown>, state: FlowState, place: RepoPlace) {
  if (!/^[0-9a-f]{40}$/i.test(sha)) return missingCommit(sha);
  // A commit the repository holds: one of its history, or one a ref of it points at.
  const { branches, commit, referenced } = await commitAt(state, place.scope, sha.toLowerCase());
  if (!referenced && (await commitOf(state, place.scope, sha)) === undefined) return missingCommit(sha);
  if (body.state === undefined || body.state === null) return refused('state', 'missing_field');
  if (!STATES.includes(String(body.state))) {
    return refused('state', 'custom', `state is not included in the list (${STATES.join(', ')})`);
  }
  const at = sha.toLowerCase();
  const { full, api } = apiOf(place);
  const id = (await state.read(KIND)).size + 1;
  const now = new Date(state.now()).toISOString();
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const status = {
    url: `${api}/statuses/${at}`,
    avatar_url: GITHUB_USER.avatar_url,
    id,
    node_id: nodeId('SC', id),
    state: body.state,
    description: text(body.description),
    target_url: text(body.target_url),
    context: text(body.context) ?? 'default',
    created_at: now,
    updated_at: now,
    creator: GITHUB_USER,
  };
  await state.keep(KIND, `${place.scope}:${id}`, { sha: at, status } satisfies StatusRecord);
  const commitUrl = `${api}/commits/${at}`;
  const { creator: _, url: _url, node_id: _node, ...told } = status;
  state.emit({
    kind: 'action',
    template: `${REPO}/statuses/{sha}`,
    values: place.values,
    events: ['status'],
    object: {
      ...told,
      sha: at,
      name: full,
      commit: {
        sha: at,
        url: commitUrl,
        html_url: `https://github.com/${full}/commit/${at}`,
        comments_url: `${commitUrl}/comments`,
        commit: {
          message: commit?.message ?? '',
          author: commit === undefined ? null : { ...commit.author, date: commit.timestamp },
          committer: commit === undefined ? null : { ...commit.committer, date: commit.timestamp },
          url: `${api}/git/commits/${at}`,
        },
        author: commit === undefined ? null : GITHUB_USER,
        committer: commit === undefined ? null : GITHUB_USER,
        parents: [],
      },
      branches: branches.map((name) => ({ name, commit: { sha: at, url: commitUrl }, protected: false })),
    },
  });
  return { status: 201, body: status };
}

/** The combined status of `sha`: the latest of each context and the state they make. */
function combined(sha: string, statuses: Record<string, unknown>[], place: RepoPlace): Record<string, unknown> {
  const latest = new Map<unknown, Record<string, unknown>>();
  for (const status of statuses) if (!latest.has(status.context)) latest.set(status.context, status);
  const states = [...latest.values()].map((status) => status.state);
  const state = states.some((one) => one === 'error' || one === 'failure')
    ? 'failure'
    : states.length === 0 || states.includes('pending')
      ? 'pending'
      : 'success';
  const { full, api } = apiOf(place);
  const repository = place.repository ?? { name: shownRepo(String(place.values.repo)), full_name: full };
  return {
    state,
    statuses: [...latest.values()].map(({ creator: _, ...status }) => status),
    sha,
    total_count: latest.size,
    repository,
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  };
}

/** GitHub's commit statuses of a repository; `undefined`: not a status's operation. */
export const githubStatuses: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  if (template === `${REPO}/statuses/{sha}` && method === 'POST') {
    return create(matched.values.sha ?? '', sent.body, state, place);
  }
  const listed = template === `${REPO}/commits/{ref}/statuses`;
  if (method !== 'GET' || (!listed && template !== `${REPO}/commits/{ref}/status`)) return undefined;
  const ref = matched.values.ref ?? '';
  const sha = await shaOf(state, place.scope, ref);
  // A ref the twin holds no commit of: no statuses to list, GitHub's 404 for its combined status.
  if (sha === undefined) return listed ? { list: [] } : { error: NOT_FOUND };
  const statuses = await statusesAt(state, place.scope, sha);
  return listed ? { list: statuses } : { status: 200, body: combined(sha, statuses, place) };
};
