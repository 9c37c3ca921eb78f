/**
 * A pull request's review comments as GitHub keeps them ("REST API endpoints for pull request
 * review comments", #84), per repository, for a pull request the twin holds:
 *
 * - `POST …/pulls/{pull_number}/comments` (`pulls.createReviewComment`) makes one on `path` at
 *   `commit_id` (checked by commit-references.ts), `line`, `side`, `start_line`, `start_side`,
 *   `subject_type` as sent, by the authenticated user; with `in_reply_to` it answers that comment
 *   instead (GitHub: "all parameters other than body in the request body are ignored"): its path,
 *   commit and lines, `in_reply_to_id` the thread's first comment. A comment `in_reply_to` names
 *   that the pull request does not have is `422 Validation Failed` (`invalid` on `in_reply_to`:
 *   the shape of GitHub's other refusals of a field; its words for this one are not confirmed).
 * - `POST …/pulls/{pull_number}/comments/{comment_id}/replies` replies so; `404` for a comment the
 *   pull request does not have (the document's answer).
 * - `GET …/pulls/{pull_number}/comments` lists the pull request's, `GET …/pulls/comments` the
 *   repository's, oldest first; `GET`, `PATCH` (its `body`) and `DELETE` of
 *   `…/pulls/comments/{comment_id}` read, change and remove one, `404` for one never made.
 *
 * The other fields (`diff_hunk`, `reactions`) are the document's example's. With `unseen:
 * "examples"`, a list the twin never wrote and a comment never made answer the document's example.
 *
 * @module
 */

import type { FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { apiOf } from './statuses.js';

const KIND = 'review-comments';
/** The last id given, one record for the twin: a deleted comment's id is not given again. */
const IDS = 'review-comment-ids';
const REPO = '/repos/{owner}/{repo}';
const PULLS = `${REPO}/pulls`;
const CREATE = `${PULLS}/{pull_number}/comments`;
const ONE = `${PULLS}/comments/{comment_id}`;
/** The fields a reply takes from the comment it answers. */
const THREAD = [
  'path',
  'commit_id',
  'original_commit_id',
  'diff_hunk',
  'line',
  'original_line',
  'side',
  'start_line',
  'original_start_line',
  'start_side',
  'subject_type',
  'position',
  'original_position',
];

/** One comment kept: the pull request's number, the comment as answered. */
interface Kept {
  pull: string;
  comment: Record<string, unknown>;
}

async function keptOf(state: FlowState, place: RepoPlace): Promise<Kept[]> {
  const prefix = `${place.scope}:`;
  const out: Kept[] = [];
  for (const [key, record] of await state.read<Kept>(KIND)) if (key.startsWith(prefix)) out.push(record);
  return out.sort((a, b) => Number(a.comment.id) - Number(b.comment.id));
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** A new comment of the pull request `number` from `sent` (a reply: from the comment it answers). */
async function made(
  state: FlowState,
  place: RepoPlace,
  number: string,
  sent: Record<string, unknown>,
  parent: Record<string, unknown> | undefined,
): Promise<OwnAnswer> {
  const last = (await state.read<{ last: number }>(IDS)).get('last')?.last ?? 0;
  const id = last + 1;
  const now = new Date(state.now()).toISOString();
  const { full, api } = apiOf(place);
  const url = `${api}/pulls/comments/${id}`;
  const html = `https://github.com/${full}/pull/${number}#discussion_r${id}`;
  const pull = `${api}/pulls/${number}`;
  const example = state.example('POST', CREATE);
  const line = numberOrNull(sent.line);
  const start = numberOrNull(sent.start_line);
  const own: Record<string, unknown> =
    parent === undefined
      ? {
          path: String(sent.path ?? ''),
          commit_id: String(sent.commit_id ?? ''),
          original_commit_id: String(sent.commit_id ?? ''),
          line,
          original_line: line,
          side: sent.side === 'LEFT' ? 'LEFT' : 'RIGHT',
          start_line: start,
          original_start_line: start,
          start_side: start === null ? null : sent.start_side === 'LEFT' ? 'LEFT' : 'RIGHT',
          subject_type: sent.subject_type === 'file' ? 'file' : 'line',
          position: numberOrNull(sent.position),
          original_position: numberOrNull(sent.position),
        }
      : {
          ...Object.fromEntries(THREAD.map((field) => [field, parent[field] ?? null])),
          in_reply_to_id: Number(parent.in_reply_to_id ?? parent.id),
        };
  const { in_reply_to_id: _, ...shown } = example;
  const comment: Record<string, unknown> = {
    ...shown,
    ...own,
    url,
    id,
    node_id: nodeId('PRRC', id),
    pull_request_review_id: null,
    user: GITHUB_USER,
    body: String(sent.body ?? ''),
    created_at: now,
    updated_at: now,
    html_url: html,
    pull_request_url: pull,
    author_association: 'OWNER',
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pull } },
  };
  await state.keep(IDS, 'last', { last: id });
  await state.keep(KIND, `${place.scope}:${id}`, { pull: number, comment } satisfies Kept);
  return { status: 201, body: comment };
}

/** The comment `id` of the repository (of the pull request `number` where given). */
async function found(state: FlowState, place: RepoPlace, id: unknown, number?: string): Promise<Kept | undefined> {
  const record = (await state.read<Kept>(KIND)).get(`${place.scope}:${String(id)}`);
  return record === undefined || (number !== undefined && record.pull !== number) ? undefined : record;
}

/** `POST …/pulls/{pull_number}/comments`: a comment, or a reply to the one `in_reply_to` names. */
async function create(state: FlowState, place: RepoPlace, number: string, sent: Record<string, unknown>) {
  if (sent.in_reply_to === undefined || sent.in_reply_to === null) return made(state, place, number, sent, undefined);
  const parent = await found(state, place, sent.in_reply_to, number);
  if (parent === undefined) {
    const errors = [{ resource: 'PullRequestReviewComment', code: 'invalid', field: 'in_reply_to' }];
    return { error: validationFailed('invalid', errors) };
  }
  return made(state, place, number, sent, parent.comment);
}

/** `GET`, `PATCH`, `DELETE …/pulls/comments/{comment_id}`. */
async function one(state: FlowState, place: RepoPlace, method: string, id: string, sent: Record<string, unknown>) {
  const record = await found(state, place, id);
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: record.comment };
  if (method === 'DELETE') {
    await state.keep(KIND, `${place.scope}:${id}`, undefined);
    return { status: 204 };
  }
  const comment: Record<string, unknown> = { ...record.comment, updated_at: new Date(state.now()).toISOString() };
  if (typeof sent.body === 'string') comment.body = sent.body;
  await state.keep(KIND, `${place.scope}:${id}`, { ...record, comment });
  return { status: 200, body: comment };
}

/** GitHub's review comments of a pull request the twin holds; `undefined`: not theirs, or a pull request never made. */
export const githubReviewComments: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  if (template === ONE && ['GET', 'PATCH', 'DELETE'].includes(method)) {
    return one(state, place, method, matched.values.comment_id ?? '', request.body);
  }
  if (template === `${PULLS}/comments` && method === 'GET') {
    const all = await keptOf(state, place);
    return all.length === 0 && state.examples ? undefined : { list: all.map((kept) => kept.comment) };
  }
  const number = matched.values.pull_number ?? '';
  const replies = `${CREATE}/{comment_id}/replies`;
  if (template !== CREATE && template !== replies) return undefined;
  const pulls = await state.objects(PULLS, place.values);
  // A pull request never made: the engine's 404 (or, `unseen: "examples"`, the document's example).
  if (!pulls.some((pull) => String(pull.number) === number)) return undefined;
  if (template === CREATE && method === 'POST') return create(state, place, number, request.body);
  if (template === CREATE && method === 'GET') {
    const all = (await keptOf(state, place)).filter((kept) => kept.pull === number);
    return all.length === 0 && state.examples ? undefined : { list: all.map((kept) => kept.comment) };
  }
  if (template !== replies || method !== 'POST') return undefined;
  const parent = await found(state, place, matched.values.comment_id ?? '', number);
  if (parent === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  return made(state, place, number, request.body, parent.comment);
};
