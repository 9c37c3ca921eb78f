/**
 * What a write's body names by a commit SHA that the repository or the pull request must hold,
 * checked as GitHub checks it (#84; body-checks.ts asks these after its own):
 *
 * - a check run's or check suite's `head_sha` (`checks.create`, `checks.createSuite`): a commit of
 *   the repository (its history, history.ts, or one a ref of it points at), else `422 No commit
 *   found for SHA: <sha>` — GitHub's words for a status of such a SHA (answers recorded in issues
 *   of rust-lang/homu #141, electron/build-tools #373), which the twin's statuses answer too
 *   (statuses.ts); that the Checks API answers the same words is not confirmed;
 * - a review's `commit_id` (`pulls.createReview`): the pull request's head or a commit it brings,
 *   else `422 Unprocessable Entity` with the error `The commitOID is not part of the pull request`
 *   (GitHub's words as reviewdog/reviewdog #434 and google-github-actions/run-gemini-cli #352
 *   quote them);
 * - a review comment's `commit_id` (`pulls.createReviewComment`): the same commits, else `422
 *   Validation Failed`, `custom` on `pull_request_review_thread.end_commit_oid` (GitHub's answer as
 *   PyGithub/PyGithub #2501 records it, 2023; it named `commit_id` in 2015, prontolabs/pronto #99);
 * - an asynchronous merge's `sha` (`pulls.mergeAsync`): the pull request's head, else the `409 Head
 *   branch was modified. Review and try the merge again.` its synchronous merge answers (merges.ts;
 *   that the asynchronous one answers these words is not confirmed);
 * - release notes' `target_commitish` (`repos.generateReleaseNotes`), read only when `tag_name` is
 *   no tag of the repository: a branch or a commit, else `422 Validation Failed` (`invalid` on
 *   `target_commitish`, as a release's create answers it; not confirmed for the notes). None sent
 *   is taken (GitHub's notes then run to the default branch's head, ncipollo/release-action #593).
 *
 * Where the twin holds no ref of the repository, every commit is taken as held (as body-checks.ts
 * takes branches); where it holds no commits of a pull request (its head's SHA the example's), so is
 * every commit of it. `undefined`: nothing to refuse (the operation answers on).
 *
 * @module
 */

import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { invalidField, validationFailed } from './events.js';
import { commitOf, compared } from './history.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { branchSha, commitAt, holdsRefs, shaOf } from './refs.js';
import { noCommit } from './statuses.js';

const REPO = '/repos/{owner}/{repo}';
const PULLS = `${REPO}/pulls`;
const SHA = /^[0-9a-f]{40}$/i;

/** Whether the repository holds the commit `sha`: in its history, or at one of its refs. */
async function holdsCommit(state: FlowState, place: RepoPlace, sha: string): Promise<boolean> {
  if (!(await holdsRefs(state, place.scope))) return true;
  if (!SHA.test(sha)) return false;
  if ((await commitOf(state, place.scope, sha)) !== undefined) return true;
  return (await commitAt(state, place.scope, sha.toLowerCase())).referenced;
}

/** A check run's or suite's `head_sha` naming no commit of the repository (its form is checks.ts's). */
async function headSha(state: FlowState, place: RepoPlace, sent: Record<string, unknown>) {
  const sha = sent.head_sha;
  if (typeof sha !== 'string' || !SHA.test(sha) || (await holdsCommit(state, place, sha))) return undefined;
  return noCommit(sha);
}

/** The pull request `number` the twin holds, with its head's and base's SHAs. */
async function pullOf(state: FlowState, place: RepoPlace, number: string) {
  const pull = (await state.objects(PULLS, place.values)).find((one) => String(one.number) === number);
  if (pull === undefined) return undefined;
  const sha = (side: unknown) => String(((side ?? {}) as Record<string, unknown>).sha ?? '').toLowerCase();
  return { pull, head: sha(pull.head), base: sha(pull.base) };
}

/** Whether `sha` is the head of the pull request `number` or a commit it brings (`undefined`: no such pull request held). */
async function inPull(state: FlowState, place: RepoPlace, number: string, sha: string): Promise<boolean | undefined> {
  const held = await pullOf(state, place, number);
  if (held === undefined) return undefined;
  const wanted = sha.toLowerCase();
  if (wanted === held.head) return true;
  // A pull request whose head the twin did not make (the example's): every commit taken.
  if ((await commitOf(state, place.scope, held.head)) === undefined) return true;
  const { ahead } = await compared(state, place.scope, held.base, held.head);
  return ahead.some((commit) => commit.sha === wanted);
}

/** A review's `commit_id` that is no commit of its pull request. */
async function reviewCommit(state: FlowState, place: RepoPlace, sent: Record<string, unknown>, number: string) {
  if (typeof sent.commit_id !== 'string' || (await inPull(state, place, number, sent.commit_id)) !== false) {
    return undefined;
  }
  const error: FlowError = {
    status: 422,
    type: 'invalid_request_error',
    message: 'Unprocessable Entity',
    extra: { errors: ['The commitOID is not part of the pull request'] },
  };
  return { error };
}

/** A review comment's `commit_id` that is no commit of its pull request (a reply's is not read). */
async function commentCommit(state: FlowState, place: RepoPlace, sent: Record<string, unknown>, number: string) {
  if (sent.in_reply_to !== undefined && sent.in_reply_to !== null) return undefined;
  if (typeof sent.commit_id !== 'string' || (await inPull(state, place, number, sent.commit_id)) !== false) {
    return undefined;
  }
  const field = 'pull_request_review_thread.end_commit_oid';
  const message = `${field} is not part of the pull request`;
  return {
    error: validationFailed('custom', [{ resource: 'PullRequestReviewComment', code: 'custom', field, message }]),
  };
}

/** An asynchronous merge expecting a head other than its pull request's. */
async function mergeAsyncSha(state: FlowState, place: RepoPlace, sent: Record<string, unknown>, number: string) {
  if (typeof sent.sha !== 'string') return undefined;
  const held = await pullOf(state, place, number);
  if (held === undefined || sent.sha.toLowerCase() === held.head) return undefined;
  const message = 'Head branch was modified. Review and try the merge again.';
  return { error: { status: 409, type: 'invalid_request_error', message } satisfies FlowError };
}

/** Release notes' `target_commitish` naming no branch or commit, where `tag_name` is no tag yet. */
async function notesTarget(state: FlowState, place: RepoPlace, sent: Record<string, unknown>) {
  const target = sent.target_commitish;
  if (typeof target !== 'string' || target === '' || !(await holdsRefs(state, place.scope))) return undefined;
  const tag = sent.tag_name;
  if (typeof tag === 'string' && (await shaOf(state, place.scope, `tags/${tag}`)) !== undefined) return undefined;
  if ((await branchSha(state, place.scope, target)) !== undefined) return undefined;
  if (SHA.test(target) && (await holdsCommit(state, place, target))) return undefined;
  return {
    error: invalidField('Release', 'target_commitish'),
  };
}

/** GitHub's refusal of a body naming a commit the repository or pull request does not hold; `undefined`: none. */
export const githubCommitReferences: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  const sent = request.body;
  const number = matched.values.pull_number ?? '';
  if (method === 'POST' && (template === `${REPO}/check-runs` || template === `${REPO}/check-suites`)) {
    return headSha(state, place, sent);
  }
  if (method === 'POST' && template === `${PULLS}/{pull_number}/reviews`) {
    return reviewCommit(state, place, sent, number);
  }
  if (method === 'POST' && template === `${PULLS}/{pull_number}/comments`) {
    return commentCommit(state, place, sent, number);
  }
  if (method === 'PUT' && template === `${PULLS}/{pull_number}/merge-async`) {
    return mergeAsyncSha(state, place, sent, number);
  }
  if (method === 'POST' && template === `${REPO}/releases/generate-notes`) return notesTarget(state, place, sent);
  return undefined;
};
