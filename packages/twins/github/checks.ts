/**
 * A repository's check runs as GitHub's Checks API keeps them (issue #73), per repository
 * (twin-own.ts): `POST …/check-runs` makes one (`name` and `head_sha` needed; `status` queued,
 * in_progress or completed; a `conclusion` needed when completed, and completing it when sent),
 * `PATCH …/check-runs/{check_run_id}` changes it, `GET` reads it, and `GET …/commits/{ref}/check-runs`
 * lists a ref's (`{ total_count, check_runs }`, the latest of each name unless `filter=all`). Each
 * tells `check_run.created`, and `check_run.completed` when it becomes completed; GitHub sends
 * them to Apps, the twin to the repository's hooks that take `check_run`.
 *
 * @module
 */

import type { FlowError, FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { notSupplied, shaOf } from './refs.js';
import { apiOf, noCommit } from './statuses.js';

const KIND = 'check-runs';
const RUNS = '/repos/{owner}/{repo}/check-runs';
const STATUSES = ['queued', 'in_progress', 'completed'];
const CONCLUSIONS = ['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'timed_out'];
const FIELDS = ['name', 'details_url', 'external_id', 'started_at', 'completed_at'];

/** The app a check run is made by: the twin's (GitHub: the App whose token made it). */
const APP = { id: 1, slug: 'mockpoint', node_id: 'A_kwDOAAAAAQ', name: 'mockpoint', owner: GITHUB_USER };

function invalid(message: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message: `Invalid request.\n\n${message}` } };
}

/** GitHub's refusal of a value outside a field's list (`For 'properties/status', "done" is not one of …`). */
function notOneOf(field: string, value: unknown, list: readonly string[]): { error: FlowError } | undefined {
  if (value === undefined || list.includes(String(value))) return undefined;
  const shown = JSON.stringify(String(value).slice(0, 100));
  return invalid(`For 'properties/${field}', ${shown} is not one of ${JSON.stringify(list)}.`);
}

/** GitHub's refusal of a check run's `status` or `conclusion` outside its list, for a write of `template`. */
export function checkRunRefused(template: string, body: Record<string, unknown>): FlowError | undefined {
  if (template !== RUNS && template !== `${RUNS}/{check_run_id}`) return undefined;
  return (notOneOf('status', body.status, STATUSES) ?? notOneOf('conclusion', body.conclusion, CONCLUSIONS))?.error;
}

/** `run` with what `body` sets: a conclusion completes it, a completion needs one. */
function applied(
  run: Record<string, unknown>,
  body: Record<string, unknown>,
  now: string,
): { run: Record<string, unknown> } | { error: FlowError } {
  const bad = notOneOf('status', body.status, STATUSES) ?? notOneOf('conclusion', body.conclusion, CONCLUSIONS);
  if (bad !== undefined) return bad;
  const next: Record<string, unknown> = { ...run };
  for (const field of FIELDS) if (typeof body[field] === 'string') next[field] = body[field];
  if (typeof body.status === 'string') next.status = body.status;
  if (typeof body.conclusion === 'string') next.conclusion = body.conclusion;
  if (next.conclusion !== null || typeof body.completed_at === 'string') next.status = 'completed';
  if (next.status === 'completed' && next.conclusion === null) return notSupplied(['conclusion']);
  if (next.status === 'completed' && next.completed_at === null) next.completed_at = now;
  if (typeof body.output === 'object' && body.output !== null) {
    const output = body.output as Record<string, unknown>;
    const had = next.output as Record<string, unknown>;
    next.output = {
      ...had,
      ...Object.fromEntries(['title', 'summary', 'text'].map((key) => [key, output[key] ?? had[key]])),
    };
  }
  return { run: next };
}

async function runsOf(state: FlowState, scope: string): Promise<Record<string, unknown>[]> {
  return [...(await state.read<Record<string, unknown>>(KIND))]
    .filter(([key]) => key.startsWith(`${scope}:`))
    .map(([, run]) => run);
}

/** Keeps `run` and tells its events: `created` when `was` is none, `completed` when it became so. */
async function kept(state: FlowState, place: RepoPlace, run: Record<string, unknown>, was?: Record<string, unknown>) {
  await state.keep(KIND, `${place.scope}:${run.id}`, run);
  const events = [
    ...(was === undefined ? ['check_run.created'] : []),
    ...(run.status === 'completed' && was?.status !== 'completed' ? ['check_run.completed'] : []),
  ];
  if (events.length > 0) state.emit({ kind: 'action', template: RUNS, object: run, values: place.values, events });
}

async function create(body: Record<string, unknown>, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const missing = ['name', 'head_sha'].filter((field) => typeof body[field] !== 'string' || body[field] === '');
  if (missing.length > 0) return notSupplied(missing);
  const sha = String(body.head_sha);
  if (!/^[0-9a-f]{40}$/i.test(sha)) return noCommit(sha);
  const id = (await state.read(KIND)).size + 1;
  const now = new Date(state.now()).toISOString();
  const { full, api } = apiOf(place);
  const fresh: Record<string, unknown> = {
    id,
    name: '',
    node_id: nodeId('CR', id),
    head_sha: sha.toLowerCase(),
    external_id: '',
    url: `${api}/check-runs/${id}`,
    html_url: `https://github.com/${full}/runs/${id}`,
    details_url: null,
    status: 'queued',
    conclusion: null,
    started_at: now,
    completed_at: null,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${api}/check-runs/${id}/annotations`,
    },
    check_suite: { id },
    app: APP,
    pull_requests: [],
  };
  const made = applied(fresh, body, now);
  if ('error' in made) return made;
  await kept(state, place, made.run);
  return { status: 201, body: made.run };
}

/** The runs of `ref`, newest first: the latest of each name unless `filter=all`, by `check_name` and `status`. */
async function listed(ref: string, query: Record<string, unknown>, state: FlowState, place: RepoPlace) {
  const sha = await shaOf(state, place.scope, ref);
  const runs = (await runsOf(state, place.scope)).filter((run) => sha !== undefined && run.head_sha === sha).reverse();
  const names = new Set<unknown>();
  const picked = runs.filter((run) => {
    if (query.check_name !== undefined && run.name !== query.check_name) return false;
    if (query.status !== undefined && run.status !== query.status) return false;
    if (query.filter === 'all') return true;
    const first = !names.has(run.name);
    names.add(run.name);
    return first;
  });
  return {
    list: picked,
    wrap: (items: Record<string, unknown>[], total: number) => ({ total_count: total, check_runs: items }),
  };
}

/** GitHub's check runs of a repository; `undefined`: not a check run's operation. */
export const githubChecks: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  if (template === RUNS && method === 'POST') return create(sent.body, state, place);
  if (template === '/repos/{owner}/{repo}/commits/{ref}/check-runs' && method === 'GET') {
    return listed(matched.values.ref ?? '', sent.query, state, place);
  }
  if (template !== `${RUNS}/{check_run_id}` || (method !== 'GET' && method !== 'PATCH')) return undefined;
  const id = matched.values.check_run_id ?? '';
  const run = (await runsOf(state, place.scope)).find((one) => String(one.id) === id);
  if (run === undefined) return { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: run };
  const next = applied(run, sent.body, new Date(state.now()).toISOString());
  if ('error' in next) return next;
  await kept(state, place, next.run, run);
  return { status: 200, body: next.run };
};
