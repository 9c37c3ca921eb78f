/**
 * A repository's workflow runs as GitHub Actions makes them (issue #73), per repository
 * (twin-own.ts), of the workflow files the twin keeps (contents.ts): `POST
 * …/actions/workflows/{workflow_id}/dispatches` (`workflow_id` the file's name, `ci.yml`, of
 * `.github/workflows/`; `ref` a branch or tag) makes a run of the file, `queued`, `event:
 * "workflow_dispatch"`, at the ref's commit, and tells `workflow_run.requested` (`204`; `200 {
 * workflow_run_id, run_url, html_url }` with `return_run_details`); `POST
 * …/actions/runs/{run_id}/cancel` completes it `cancelled` (`202`; `409` when it is completed
 * already) and tells `workflow_run.completed`; `GET …/actions/runs` lists the runs (`{ total_count,
 * workflow_runs }`, newest first) and `GET …/actions/runs/{run_id}` reads one. A file missing is
 * `404`, one without a `workflow_dispatch` trigger `422`, a ref missing `422 No ref found for: …`.
 * The twin runs no job: a run is queued until it is cancelled.
 *
 * @module
 */

import type { FlowError, FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { fileBytes } from './contents.js';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { notSupplied, shaOf } from './refs.js';
import { apiOf } from './statuses.js';
import { urlPart } from './url-part.js';

const KIND = 'workflow-runs';
const REPO = '/repos/{owner}/{repo}';
const RUNS = `${REPO}/actions/runs`;
const DISPATCHES = `${REPO}/actions/workflows/{workflow_id}/dispatches`;

/** A run kept: the run as answered, its workflow as the payload carries it. */
interface RunRecord {
  run: Record<string, unknown>;
  workflow: Record<string, unknown>;
}

function unprocessable(message: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message } };
}

/** A workflow's id, stable for its path (GitHub numbers workflows; the twin keeps none apart from their files). */
function workflowId(path: string): number {
  let hash = 2166136261;
  for (const char of path) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return (hash % 900_000_000) + 100_000_000;
}

async function runsOf(state: FlowState, scope: string): Promise<[string, RunRecord][]> {
  return [...(await state.read<RunRecord>(KIND))].filter(([key]) => key.startsWith(`${scope}:`));
}

/** Keeps `record` and tells its event. */
async function kept(state: FlowState, place: RepoPlace, record: RunRecord, event: string): Promise<void> {
  await state.keep(KIND, `${place.scope}:${record.run.id}`, record);
  state.emit({
    kind: 'action',
    template: RUNS,
    object: record.run,
    values: place.values,
    events: [event],
    extra: { workflow: record.workflow },
  });
}

async function dispatch(
  file: string,
  body: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<OwnAnswer> {
  // The workflow its path names first, as GitHub answers: `404` before a `ref` refused.
  const path = `.github/workflows/${file}`;
  const bytes = /^[^/]+\.ya?ml$/.test(file) ? await fileBytes(state, place.scope, path) : undefined;
  if (bytes === undefined) return { error: NOT_FOUND };
  if (typeof body.ref !== 'string' || body.ref === '') return notSupplied(['ref']);
  if (!/\bworkflow_dispatch\b/.test(new TextDecoder().decode(bytes))) {
    return unprocessable("Workflow does not have 'workflow_dispatch' trigger");
  }
  const ref = body.ref.replace(/^refs\/(heads|tags)\//, '');
  const sha = await shaOf(state, place.scope, ref);
  if (sha === undefined) return unprocessable(`No ref found for: ${ref.slice(0, 200)}`);
  const all = await runsOf(state, place.scope);
  // Numbered in the twin as GitHub's ids, and per repository as its `run_number`.
  const id = (await state.read(KIND)).size + 1;
  const { full, api } = apiOf(place);
  const now = new Date(state.now()).toISOString();
  const name = file.replace(/\.ya?ml$/, '');
  const workflow_id = workflowId(path);
  const web = `https://github.com/${full}`;
  const workflow = {
    ...state.example('GET', `${REPO}/actions/workflows/{workflow_id}`),
    id: workflow_id,
    node_id: nodeId('W', workflow_id),
    name,
    path,
    state: 'active',
    created_at: now,
    updated_at: now,
    url: `${api}/actions/workflows/${workflow_id}`,
    html_url: `${web}/blob/main/${path}`,
    badge_url: `${web}/workflows/${urlPart(name)}/badge.svg`,
  };
  const repository = place.repository ?? {};
  const run = {
    ...state.example('GET', `${RUNS}/{run_id}`),
    id,
    name,
    node_id: nodeId('WFR', id),
    check_suite_id: id,
    check_suite_node_id: nodeId('CS', id),
    head_branch: ref,
    head_sha: sha,
    path: `${path}@${ref}`,
    run_number: all.length + 1,
    run_attempt: 1,
    event: 'workflow_dispatch',
    display_title: name,
    status: 'queued',
    conclusion: null,
    workflow_id,
    url: `${api}/actions/runs/${id}`,
    html_url: `${web}/actions/runs/${id}`,
    jobs_url: `${api}/actions/runs/${id}/jobs`,
    logs_url: `${api}/actions/runs/${id}/logs`,
    check_suite_url: `${api}/check-suites/${id}`,
    artifacts_url: `${api}/actions/runs/${id}/artifacts`,
    cancel_url: `${api}/actions/runs/${id}/cancel`,
    rerun_url: `${api}/actions/runs/${id}/rerun`,
    previous_attempt_url: null,
    workflow_url: workflow.url,
    pull_requests: [],
    referenced_workflows: [],
    created_at: now,
    updated_at: now,
    run_started_at: now,
    actor: GITHUB_USER,
    triggering_actor: GITHUB_USER,
    head_commit: { id: sha, tree_id: sha, message: name, timestamp: now },
    repository,
    head_repository: repository,
  };
  await kept(state, place, { run, workflow }, 'workflow_run.requested');
  if (body.return_run_details !== true) return { status: 204 };
  return { status: 200, body: { workflow_run_id: id, run_url: run.url, html_url: run.html_url } };
}

/** A repository's workflow runs; `undefined`: not theirs. */
export const githubWorkflows: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  if (template === DISPATCHES && method === 'POST') {
    return dispatch(matched.values.workflow_id ?? '', sent.body, state, place);
  }
  // Below a repository never made (a read): the engine's answer (an empty list, the examples).
  if (place.repository === undefined) return undefined;
  if (template === RUNS && method === 'GET') {
    const runs = (await runsOf(state, place.scope)).map(([, record]) => record.run).reverse();
    return {
      list: runs,
      wrap: (items: Record<string, unknown>[], total: number) => ({ total_count: total, workflow_runs: items }),
    };
  }
  if (template !== `${RUNS}/{run_id}` && template !== `${RUNS}/{run_id}/cancel`) return undefined;
  if (template.endsWith('/cancel') ? method !== 'POST' : method !== 'GET') return undefined;
  const id = matched.values.run_id ?? '';
  const record = (await runsOf(state, place.scope)).find(([, one]) => String(one.run.id) === id)?.[1];
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: record.run };
  if (record.run.status === 'completed') {
    return {
      error: { status: 409, type: 'invalid_request_error', message: 'Cannot cancel a workflow run that is completed.' },
    };
  }
  const now = new Date(state.now()).toISOString();
  const run = { ...record.run, status: 'completed', conclusion: 'cancelled', updated_at: now };
  await kept(state, place, { ...record, run }, 'workflow_run.completed');
  return { status: 202, body: {} };
};
