/**
 * A repository's deployment environments as GitHub keeps them (issue #73; its REST reference,
 * "Deployment environments"), per repository (twin-own.ts):
 *
 * - `PUT …/environments/{environment_name}` makes the environment, or updates the one of that name
 *   (names are not case sensitive: the first spelling is kept), `200` with it either way, as
 *   GitHub answers. `wait_timer` (minutes, 0 to 43,200), `prevent_self_review`, `reviewers` (at most
 *   6, `{ type: "User" | "Team", id }`) and `deployment_branch_policy` (`null`: every branch;
 *   exactly one of `protected_branches` and `custom_branch_policies` true) are its protection
 *   rules; a field not sent keeps what it was, `null` clears it. A reviewer the twin does not know
 *   (any but the authenticated user) is refused: the twin keeps no other users or teams.
 * - `GET …/environments/{environment_name}` reads it; `GET …/environments` lists them
 *   (`{ total_count, environments }`, oldest first, paged); `DELETE` removes it (`204`). One never
 *   made is GitHub's `404 Not Found`.
 *
 * @module
 */
import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { apiOf } from './statuses.js';
import { urlPart } from './url-part.js';

const ENVIRONMENTS = '/repos/{owner}/{repo}/environments';
const ENVIRONMENT = `${ENVIRONMENTS}/{environment_name}`;
const KIND = 'environments';
const NUMBERS = 'environment-numbers';
const MAX_WAIT = 43_200;
const MAX_REVIEWERS = 6;
const MAX_NAME = 255;

/** An environment kept: its repository, its settings as sent, the environment as answered. */
interface EnvironmentRecord {
  scope: string;
  environment: Record<string, unknown>;
  settings: Settings;
  /** The ids of its protection rules, by type, kept across updates. */
  rules: Record<string, number>;
}

interface Settings {
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: { type: string; id: number }[];
  deployment_branch_policy: { protected_branches: boolean; custom_branch_policies: boolean } | null;
}

/** GitHub's `422` of a setting its reference refuses, in its words. */
function refused(code: string, message: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', code, message } };
}

/** The settings an update makes of `was` and what was sent; or GitHub's refusal. */
function settingsOf(was: Settings | undefined, sent: Record<string, unknown>): Settings | { error: FlowError } {
  const next: Settings = was ?? {
    wait_timer: 0,
    prevent_self_review: false,
    reviewers: [],
    deployment_branch_policy: null,
  };
  const wait = sent.wait_timer;
  if (wait !== undefined && wait !== null) {
    if (typeof wait !== 'number' || !Number.isInteger(wait) || wait < 0 || wait > MAX_WAIT) {
      return refused('invalid_wait_timer', 'wait_timer must be an integer between 0 and 43,200 (30 days)');
    }
  }
  const review = sent.prevent_self_review;
  if (review !== undefined && review !== null && typeof review !== 'boolean') {
    return refused('invalid_prevent_self_review', 'prevent_self_review must be a boolean');
  }
  const reviewers = sent.reviewers;
  let kept = next.reviewers;
  if (reviewers === null) kept = [];
  else if (reviewers !== undefined) {
    if (!Array.isArray(reviewers) || reviewers.length > MAX_REVIEWERS) {
      return refused('invalid_reviewers', `reviewers must be a list of at most ${MAX_REVIEWERS}`);
    }
    kept = [];
    for (const one of reviewers as unknown[]) {
      const { type, id } = (typeof one === 'object' && one !== null ? one : {}) as Record<string, unknown>;
      if ((type !== 'User' && type !== 'Team') || typeof id !== 'number') {
        return refused('invalid_reviewers', 'each reviewer must be { type: "User" or "Team", id }');
      }
      if (type !== 'User' || id !== GITHUB_USER.id) {
        return refused('reviewer_not_found', `no ${type} of id ${id} can review deployments to this environment`);
      }
      if (!kept.some((had) => had.type === type && had.id === id)) kept.push({ type, id });
    }
  }
  const policy = sent.deployment_branch_policy;
  let branches = next.deployment_branch_policy;
  if (policy === null) branches = null;
  else if (policy !== undefined) {
    const { protected_branches: only, custom_branch_policies: custom } = (
      typeof policy === 'object' ? policy : {}
    ) as Record<string, unknown>;
    if (typeof only !== 'boolean' || typeof custom !== 'boolean' || only === custom) {
      return refused(
        'invalid_deployment_branch_policy',
        'deployment_branch_policy: if protected_branches is true, custom_branch_policies must be false; if protected_branches is false, custom_branch_policies must be true',
      );
    }
    branches = { protected_branches: only, custom_branch_policies: custom };
  }
  return {
    wait_timer: typeof wait === 'number' ? wait : wait === null ? 0 : next.wait_timer,
    prevent_self_review: typeof review === 'boolean' ? review : review === null ? false : next.prevent_self_review,
    reviewers: kept,
    deployment_branch_policy: branches,
  };
}

/** The next number of `what` (an environment, a rule): never given again after a deletion. */
async function nextNumber(state: FlowState, what: string): Promise<number> {
  const id = ((await state.read<{ last: number }>(NUMBERS)).get(what)?.last ?? 0) + 1;
  await state.keep(NUMBERS, what, { last: id });
  return id;
}

/** Its protection rules as GitHub lists them, each rule's id kept in `rules`. */
async function rulesOf(settings: Settings, rules: Record<string, number>, state: FlowState): Promise<unknown[]> {
  const wanted: [string, Record<string, unknown>][] = [];
  if (settings.wait_timer > 0) wanted.push(['wait_timer', { wait_timer: settings.wait_timer }]);
  if (settings.reviewers.length > 0) {
    const reviewers = settings.reviewers.map((one) => ({ type: one.type, reviewer: GITHUB_USER }));
    wanted.push(['required_reviewers', { prevent_self_review: settings.prevent_self_review, reviewers }]);
  }
  if (settings.deployment_branch_policy !== null) wanted.push(['branch_policy', {}]);
  const shown: unknown[] = [];
  for (const [type, fields] of wanted) {
    rules[type] ??= await nextNumber(state, 'rule');
    const id = rules[type] as number;
    shown.push({ id, node_id: nodeId('GA', id), type, ...fields });
  }
  return shown;
}

async function recordsOf(state: FlowState, place: RepoPlace): Promise<[string, EnvironmentRecord][]> {
  return [...(await state.read<EnvironmentRecord>(KIND))].filter(([, record]) => record.scope === place.scope);
}

async function put(
  name: string,
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<{ status: number; body: unknown } | { error: FlowError }> {
  if (name.length > MAX_NAME) {
    return refused('name_too_long', `environment_name is too long (maximum is ${MAX_NAME} characters)`);
  }
  const key = `${place.scope}:${name.toLowerCase()}`;
  const was = (await state.read<EnvironmentRecord>(KIND)).get(key);
  const settings = settingsOf(was?.settings, sent);
  if ('error' in settings) return settings;
  const now = new Date(state.now()).toISOString();
  let environment = was?.environment;
  if (environment === undefined) {
    const id = await nextNumber(state, 'environment');
    const { full, api } = apiOf(place);
    const shown = urlPart(name);
    environment = {
      id,
      node_id: nodeId('EN', id),
      name,
      url: `${api}/environments/${shown}`,
      html_url: `https://github.com/${full}/deployments/activity_log?environments_filter=${shown}`,
      created_at: now,
    };
  }
  const rules = { ...(was?.rules ?? {}) };
  const changed = {
    ...environment,
    updated_at: now,
    protection_rules: await rulesOf(settings, rules, state),
    deployment_branch_policy: settings.deployment_branch_policy,
  };
  await state.keep(KIND, key, {
    scope: place.scope,
    environment: changed,
    settings,
    rules,
  } satisfies EnvironmentRecord);
  return { status: 200, body: changed };
}

/** Whether the repository at `place` holds the environment `name` (names ignore case). */
export async function environmentHeld(state: FlowState, place: RepoPlace, name: string): Promise<boolean> {
  return (await state.read<EnvironmentRecord>(KIND)).has(`${place.scope}:${name.toLowerCase()}`);
}

/** A repository's deployment environments; `undefined`: not theirs. */
export const githubEnvironments: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  if (template !== ENVIRONMENTS && template !== ENVIRONMENT) return undefined;
  // Below a repository never made (a read): the document's, or its 404.
  if (place.repository === undefined) return undefined;
  if (template === ENVIRONMENTS) {
    if (method !== 'GET') return undefined;
    const all = await recordsOf(state, place);
    if (state.examples && all.length === 0) return undefined;
    return {
      list: all.map(([, record]) => record.environment),
      wrap: (items: Record<string, unknown>[], total: number) => ({ total_count: total, environments: items }),
    };
  }
  const name = matched.values.environment_name ?? '';
  if (method === 'PUT') return put(name, sent.body, state, place);
  const key = `${place.scope}:${name.toLowerCase()}`;
  const record = (await state.read<EnvironmentRecord>(KIND)).get(key);
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: record.environment };
  if (method !== 'DELETE') return undefined;
  await state.keep(KIND, key, undefined);
  return { status: 204 };
};
