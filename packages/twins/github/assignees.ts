/**
 * Assignees as GitHub's REST reference describes them ("Assignees"), per repository (twin-own.ts):
 *
 * - `GET …/assignees` (`issues.listAssignees`) lists who can be assigned: the owner (a user's
 *   repository), the authenticated user and the collaborators (collaborators.ts), paged;
 *   `GET …/assignees/{assignee}` is `204` for one of them, `404` for another, and so is
 *   `GET …/issues/{n}/assignees/{assignee}` of an issue or pull request the twin holds.
 * - `POST …/issues/{n}/assignees` (`issues.addAssignees`) adds those of the logins sent who can be
 *   assigned (GitHub ignores the others), keeping those it has, at most 10; `DELETE` removes the
 *   logins sent. Each answers the issue (a pull request as an issue), its `assignees` users and
 *   `assignee` the first, and sends `issues.assigned` / `unassigned` (`pull_request.…` of a pull
 *   request) with the first user it added or removed (GitHub sends one event a user).
 * - `issues.create` and `issues.update` (of a pull request's number too) take only `assignees` who
 *   can be assigned: one who cannot is `422 Validation Failed` (`invalid`, `field: "assignees"`),
 *   nothing made or changed (the caller, every token's user, has push access: nothing is dropped).
 * - A login sent in another case (`OctoCat`) is the user's own (`octocat`), as GitHub answers it:
 *   logins are not case sensitive. The twin knows a collaborator's as it was invited.
 *
 * @module
 */

import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { assignableLogins } from './collaborators.js';
import { validationFailed } from './events.js';
import { member, userOf } from './issues.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';

const REPO = '/repos/{owner}/{repo}';
const ASSIGNEES = `${REPO}/assignees`;
const ISSUES = `${REPO}/issues`;
const PULLS = `${REPO}/pulls`;
const ISSUE_ASSIGNEES = `${ISSUES}/{issue_number}/assignees`;

/** The issue or pull request of `number` as a read answers it (its counts), and the collection it is in. */
async function numbered(
  state: FlowState,
  place: RepoPlace,
  number: string,
): Promise<{ template: string; object: Record<string, unknown> } | undefined> {
  const scope = `${place.values.owner}/${place.values.repo}`;
  for (const template of [ISSUES, PULLS]) {
    const object = (await state.objectsByScope(template)).get(scope)?.find((one) => String(one.number) === number);
    if (object !== undefined) return { template, object };
  }
  return undefined;
}

/** The logins sent as `assignees` (a login, or `{ login }`), each once, case aside. */
function loginsSent(sent: unknown): string[] {
  const given = Array.isArray(sent) ? sent : typeof sent === 'string' ? [sent] : [];
  const logins = given
    .map((one) => (typeof one === 'string' ? one : String((one as { login?: unknown } | null)?.login ?? '')))
    .map((login) => login.slice(0, 39))
    .filter((login) => login !== '');
  return logins.filter((login, at) => logins.findIndex((other) => same(other, login)) === at);
}

function same(a: unknown, b: unknown): boolean {
  return String(a).toLowerCase() === String(b).toLowerCase();
}

function loginOf(user: unknown): string {
  return String((user as { login?: unknown } | null)?.login ?? '');
}

/** Adds (`POST`) or removes (`DELETE`) the logins sent on the issue or pull request `number`; `undefined`: none held. */
async function changeAssignees(
  adding: boolean,
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
  number: string,
) {
  const found = await numbered(state, place, number);
  if (found === undefined) return undefined;
  const had = (Array.isArray(found.object.assignees) ? found.object.assignees : []) as Record<string, unknown>[];
  const logins = loginsSent(sent.assignees);
  let assignees: Record<string, unknown>[];
  if (adding) {
    const assignable = await assignableLogins(state, place);
    const taken = logins
      .map((login) => assignable.find((one) => same(one, login)))
      .filter((login): login is string => login !== undefined && !had.some((user) => same(loginOf(user), login)));
    assignees = [...had, ...taken.map(userOf)].slice(0, 10);
  } else {
    assignees = had.filter((user) => !logins.some((login) => same(login, loginOf(user))));
  }
  const changed = adding
    ? assignees.find((user) => !had.includes(user))
    : had.find((user) => !assignees.includes(user));
  let object = found.object;
  if (changed !== undefined) {
    const now = new Date(state.now()).toISOString();
    const amended = await state.amend(found.template, place.values, number, (kept) => {
      Object.assign(kept, { assignees, assignee: assignees[0] ?? null, updated_at: now });
    });
    if (amended === undefined) return undefined;
    // The counts a read answers (its `comments`) are the ones read.
    object = { ...amended, comments: found.object.comments };
    const event = found.template === PULLS ? 'pull_request' : 'issues';
    state.emit({
      kind: 'action',
      template: found.template,
      object,
      values: place.values,
      events: [`${event}.${adding ? 'assigned' : 'unassigned'}`],
      extra: { assignee: changed },
    });
  }
  return { status: adding ? 201 : 200, body: member(found.template, object) };
}

/**
 * GitHub's refusal of an issue's create or update (`issues.create`, `issues.update`, of a pull
 * request's number too) naming as `assignees` (or `assignee`) a login that cannot be assigned:
 * `422 Validation Failed`, an `invalid` error for each (the description documents the shape; the
 * entries are GitHub's as remembered). When every one can be, the collections make it with each
 * login in the case the twin holds it (`octocat` for `OctoCat`: GitHub's logins are not case
 * sensitive, and it answers the user's own); `undefined`: none sent, or each in that case already.
 */
async function unassignable(
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<{ error: FlowError } | { values: Record<string, string>; body: Record<string, unknown> } | undefined> {
  const field = Array.isArray(sent.assignees) ? 'assignees' : typeof sent.assignee === 'string' ? 'assignee' : '';
  if (field === '') return undefined;
  const logins = loginsSent(sent[field]);
  if (logins.length === 0) return undefined;
  const assignable = await assignableLogins(state, place);
  const refused = logins.filter((login) => !assignable.some((one) => same(one, login)));
  if (refused.length > 0) {
    return {
      error: validationFailed(
        'invalid',
        refused.slice(0, 10).map((value) => ({ resource: 'Issue', field, code: 'invalid', value })),
      ),
    };
  }
  const held = logins.map((login) => assignable.find((one) => same(one, login)) ?? login);
  const taken = field === 'assignees' ? held : held[0];
  if (JSON.stringify(taken) === JSON.stringify(sent[field])) return undefined;
  return { values: place.values, body: { ...sent, [field]: taken } };
}

/** GitHub's assignees of a repository and of its issues; `undefined`: not theirs, or an issue the twin does not hold. */
export const githubAssignees: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  const number = matched.values.issue_number ?? '';
  if (template === ISSUE_ASSIGNEES && (method === 'POST' || method === 'DELETE')) {
    return changeAssignees(method === 'POST', request.body, state, place, number);
  }
  if ((template === ISSUES && method === 'POST') || (template === `${ISSUES}/{issue_number}` && method === 'PATCH')) {
    // An update of a number the twin does not hold: the collections' 404 before anything else.
    if (method === 'PATCH' && (await numbered(state, place, number)) === undefined) return undefined;
    return unassignable(request.body, state, place);
  }
  if (method !== 'GET') return undefined;
  // Below a repository never made (a read): answered as the collections answer it.
  if (place.repository === undefined) return undefined;
  if (template === ASSIGNEES) return { list: (await assignableLogins(state, place)).map(userOf) };
  const assignee = matched.values.assignee ?? '';
  if (template === `${ISSUE_ASSIGNEES}/{assignee}`) {
    if ((await numbered(state, place, number)) === undefined) return undefined;
  } else if (template !== `${ASSIGNEES}/{assignee}`) {
    return undefined;
  }
  const can = (await assignableLogins(state, place)).some((login) => same(login, assignee));
  return can ? { status: 204 } : { error: NOT_FOUND };
};
