/**
 * What a write's body names that the repository must hold, checked as GitHub checks it (#84; the
 * body properties that name another object are listed in body-references.json, and
 * twin-github-body-references.test.ts sends each write of the document carrying one):
 *
 * - a release's `target_commitish` (`repos.createRelease`, `repos.updateRelease`): a branch or a
 *   commit of the repository, else `422 Validation Failed` (`invalid` on `target_commitish`); unused,
 *   so unchecked, when the release's tag exists;
 * - a pull request's new `base` (`pulls.update`): a branch, else `422 Validation Failed` (`invalid`
 *   on `base`), as its create (pulls.ts);
 * - a merge's `base` and `head` (`repos.merge`): a branch (the head a commit too), else GitHub's
 *   `404 Base does not exist` / `404 Head does not exist`;
 * - the `issue` a new pull request is made of (`pulls.create`): an issue of the repository (not a pull
 *   request), else `422 Validation Failed` (`invalid` on `issue`);
 * - the `reviewers` of a review request (`pulls.requestReviewers`): users who can be assigned (the
 *   owner, collaborators), else GitHub's `422 Reviews may only be requested from collaborators. …`.
 *
 * Where the twin holds no ref of the repository, every branch and commit is taken as held (as a pull
 * request's create takes them, pulls.ts). `undefined`: nothing to refuse (the operation answers on).
 *
 * @module
 */

import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { assignableLogins } from './collaborators.js';
import { invalidField } from './events.js';
import { commitOf } from './history.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { branchSha, holdsRefs, shaOf } from './refs.js';

const REPO = '/repos/{owner}/{repo}';
const RELEASES = `${REPO}/releases`;
const PULLS = `${REPO}/pulls`;
const SHA = /^[0-9a-f]{40}$/i;

/** Whether `value` names a branch of the repository, or (with `commits`) a commit it holds. */
async function names(state: FlowState, place: RepoPlace, value: string, commits: boolean): Promise<boolean> {
  if (!(await holdsRefs(state, place.scope))) return true;
  if ((await branchSha(state, place.scope, value)) !== undefined) return true;
  if (!commits || !SHA.test(value)) return false;
  return (await commitOf(state, place.scope, value)) !== undefined;
}

function notFound(message: string): { error: FlowError } {
  return { error: { status: 404, type: 'invalid_request_error', message } };
}

/** A release's `target_commitish` naming no branch or commit, where its tag does not exist yet. */
async function releaseTarget(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
  id: string | undefined,
): Promise<{ error: FlowError } | undefined> {
  const target = sent.target_commitish;
  if (typeof target !== 'string' || target === '') return undefined;
  let tag = sent.tag_name;
  if (id !== undefined) {
    const release = (await state.objects(RELEASES, place.values)).find((one) => String(one.id) === id);
    // A release the twin does not hold: the collections' 404.
    if (release === undefined) return undefined;
    tag ??= release.tag_name;
  }
  if (typeof tag === 'string' && (await shaOf(state, place.scope, `tags/${tag}`)) !== undefined) return undefined;
  if (await names(state, place, target, true)) return undefined;
  return {
    error: invalidField('Release', 'target_commitish'),
  };
}

/** A pull request's new `base` naming no branch of the repository. */
async function pullBase(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
  number: string,
): Promise<{ error: FlowError } | undefined> {
  if (typeof sent.base !== 'string') return undefined;
  const pull = (await state.objects(PULLS, place.values)).find((one) => String(one.number) === number);
  if (pull === undefined || (await names(state, place, sent.base, false))) return undefined;
  return { error: invalidField('PullRequest', 'base') };
}

/** A merge's `base` or `head` naming nothing the repository holds. */
async function mergeBranches(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
): Promise<{ error: FlowError } | undefined> {
  if (typeof sent.base === 'string' && !(await names(state, place, sent.base, false))) {
    return notFound('Base does not exist');
  }
  if (typeof sent.head === 'string' && !(await names(state, place, sent.head, true))) {
    return notFound('Head does not exist');
  }
  return undefined;
}

/** A new pull request's `issue` naming no issue of the repository. */
async function pullIssue(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
): Promise<{ error: FlowError } | undefined> {
  if (sent.issue === undefined || sent.issue === null) return undefined;
  const number = String(sent.issue);
  const pulls = await state.objects(PULLS, place.values);
  const issues = await state.objects(`${REPO}/issues`, place.values);
  const held = (list: Record<string, unknown>[]) => list.some((one) => String(one.number) === number);
  if (held(issues) && !held(pulls)) return undefined;
  return { error: invalidField('PullRequest', 'issue') };
}

/** A review requested of one who is no collaborator (nor the owner). */
async function reviewers(
  state: FlowState,
  place: RepoPlace,
  sent: Record<string, unknown>,
  number: string,
): Promise<{ error: FlowError } | undefined> {
  if (!Array.isArray(sent.reviewers) || sent.reviewers.length === 0) return undefined;
  const pull = (await state.objects(PULLS, place.values)).find((one) => String(one.number) === number);
  if (pull === undefined) return undefined;
  const can = new Set((await assignableLogins(state, place)).map((login) => login.toLowerCase()));
  if (sent.reviewers.every((login) => typeof login === 'string' && can.has(login.toLowerCase()))) return undefined;
  const full = String(place.repository?.full_name ?? `${place.values.owner}/${place.values.repo}`);
  const message = `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${full.slice(0, 200)} repository.`;
  return { error: { status: 422, type: 'invalid_request_error', message } };
}

/** GitHub's refusal of a body naming what the repository does not hold; `undefined`: none. */
export const githubBodyChecks: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  const sent = request.body;
  if (template === RELEASES && method === 'POST') return releaseTarget(state, place, sent, undefined);
  if (template === `${RELEASES}/{release_id}` && method === 'PATCH') {
    return releaseTarget(state, place, sent, matched.values.release_id ?? '');
  }
  if (template === `${PULLS}/{pull_number}` && method === 'PATCH') {
    return pullBase(state, place, sent, matched.values.pull_number ?? '');
  }
  if (template === PULLS && method === 'POST') return pullIssue(state, place, sent);
  if (template === `${REPO}/merges` && method === 'POST') return mergeBranches(state, place, sent);
  if (template === `${PULLS}/{pull_number}/requested_reviewers` && method === 'POST') {
    return reviewers(state, place, sent, matched.values.pull_number ?? '');
  }
  return undefined;
};
