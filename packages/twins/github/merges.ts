/**
 * A pull request's merge as GitHub's REST reference describes it ("Merge a pull request", "Check
 * if a pull request has been merged"), per repository (twin-own.ts):
 *
 * - `PUT …/pulls/{pull_number}/merge` (`merge_method` merge, squash or rebase; `commit_title`,
 *   `commit_message`, `sha`) merges an open pull request: it reads `state: "closed"`, `merged`,
 *   `merged_at`, `merge_commit_sha` (the `sha` the merge answers, a new commit's), `merged_by` the
 *   authenticated user, and so does its issue; a `pull_request.closed` event carries it. The base
 *   branch, when the twin holds its ref, moves to the merge commit (its `push`, pushes.ts).
 * - Refused as GitHub refuses: merged or closed `405 Pull Request is not mergeable`, a draft `405
 *   Pull Request is still a draft`, a method the repository does not allow (`allow_merge_commit`,
 *   `allow_squash_merge`, `allow_rebase_merge`) `405`, a `sha` other than the head's `409 Head
 *   branch was modified. Review and try the merge again.`, a `merge_method` outside the three `422`.
 * - `GET …/pulls/{pull_number}/merge` is `204` for a merged pull request, `404` for another.
 *
 * @module
 */

import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { closeReferenced } from './closing-keywords.js';
import { invalidField } from './events.js';
import { compared, keepMerge } from './history.js';
import { GITHUB_USER } from './issues.js';
import { NOT_FOUND } from './not-found.js';
import type { PushedCommit, RepoOperation, RepoPlace } from './pushes.js';
import { branchSha, moveBranch } from './refs.js';
import { shownRepo } from './repo-kept.js';

const PULLS = '/repos/{owner}/{repo}/pulls';
const MERGE = `${PULLS}/{pull_number}/merge`;

/** The methods GitHub merges by, each with the repository's setting that allows it and its refusal. */
const METHODS: Readonly<Record<string, { setting: string; refusal: string }>> = {
  merge: { setting: 'allow_merge_commit', refusal: 'Merge commits are not allowed on this repository.' },
  squash: { setting: 'allow_squash_merge', refusal: 'Squash merges are not allowed on this repository.' },
  rebase: { setting: 'allow_rebase_merge', refusal: 'Rebase merges are not allowed on this repository.' },
};

/** GitHub's `422` of a merge whose `merge_method` is none of its three (`PUT …/pulls/{pull_number}/merge`). */
export function mergeMethodRefused(
  template: string,
  method: string,
  sent: Record<string, unknown>,
): FlowError | undefined {
  if (template !== MERGE || method !== 'PUT') return undefined;
  const how = sent.merge_method ?? 'merge';
  if (typeof how === 'string' && Object.hasOwn(METHODS, how)) return undefined;
  const value = String(how).slice(0, 100);
  return invalidField('PullRequest', 'merge_method', { value });
}

function notAllowed(message: string): { error: FlowError } {
  return { error: { status: 405, type: 'invalid_request_error', message } };
}

/** A new commit's SHA (the twin keeps no trees to hash). */
function newSha(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The merge commit as a push lists it: its title and message as GitHub writes them unless sent. */
function mergeCommit(
  state: FlowState,
  place: RepoPlace,
  pull: Record<string, unknown>,
  sent: Record<string, unknown>,
  sha: string,
): PushedCommit {
  const head = (pull.head ?? {}) as Record<string, unknown>;
  const method = String(sent.merge_method ?? 'merge');
  const from = String(head.label ?? head.ref ?? '').replace(':', '/');
  const title =
    typeof sent.commit_title === 'string' && sent.commit_title !== ''
      ? sent.commit_title
      : method === 'squash'
        ? `${String(pull.title)} (#${String(pull.number)})`
        : `Merge pull request #${String(pull.number)} from ${from}`;
  const body = typeof sent.commit_message === 'string' ? sent.commit_message : String(pull.title ?? '');
  const who = { name: 'The Octocat', email: 'octocat@github.com', username: GITHUB_USER.login };
  const full = `${place.values.owner}/${shownRepo(String(place.values.repo))}`;
  return {
    id: sha,
    tree_id: newSha(),
    distinct: true,
    message: body === '' ? title : `${title}\n\n${body}`,
    timestamp: new Date(state.now()).toISOString(),
    url: `https://github.com/${full}/commit/${sha}`,
    author: who,
    committer: who,
    added: [],
    removed: [],
    modified: [],
  };
}

/** GitHub's merge of a pull request and its check; `undefined`: not theirs, or a pull request the twin does not hold. */
export const githubMerges: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  if (template !== MERGE || (method !== 'PUT' && method !== 'GET')) return undefined;
  const number = matched.values.pull_number ?? '';
  const pull = (await state.objects(PULLS, place.values)).find((one) => String(one.number) === number);
  // One the twin never made: the engine's 404 (or, `unseen: "examples"`, the document's example).
  if (pull === undefined) return undefined;
  if (method === 'GET') return pull.merged === true ? { status: 204 } : { error: NOT_FOUND };
  const sent = request.body;
  const refused = mergeMethodRefused(template, method, sent);
  if (refused !== undefined) return { error: refused };
  const how = String(sent.merge_method ?? 'merge');
  const allowed = METHODS[how] as (typeof METHODS)[string];
  if (pull.merged === true || pull.state !== 'open') return notAllowed('Pull Request is not mergeable');
  if (pull.draft === true) return notAllowed('Pull Request is still a draft');
  if (place.repository?.[allowed.setting] === false) return notAllowed(allowed.refusal);
  const head = (pull.head ?? {}) as Record<string, unknown>;
  if (sent.sha !== undefined && sent.sha !== head.sha) {
    return {
      error: {
        status: 409,
        type: 'invalid_request_error',
        message: 'Head branch was modified. Review and try the merge again.',
      },
    };
  }
  const sha = newSha();
  const now = new Date(state.now()).toISOString();
  const merged = await state.amend(PULLS, place.values, number, (object) => {
    Object.assign(object, {
      state: 'closed',
      closed_at: now,
      updated_at: now,
      merged: true,
      merged_at: now,
      merge_commit_sha: sha,
      merged_by: GITHUB_USER,
      mergeable: null,
      rebaseable: null,
      mergeable_state: 'unknown',
    });
  });
  if (merged === undefined) return undefined;
  state.emit({
    kind: 'updated',
    template: PULLS,
    object: merged,
    before: 'open',
    values: place.values,
    events: ['pull_request.closed'],
  });
  // The base branch moves to the merge commit, where the twin holds its ref (its `push`).
  const base = String(((pull.base ?? {}) as Record<string, unknown>).ref ?? '');
  const baseSha = base === '' ? undefined : await branchSha(state, place.scope, base);
  const texts: unknown[] = [pull.body, sent.commit_message];
  if (baseSha !== undefined) {
    const made = mergeCommit(state, place, pull, sent, sha);
    const headSha = typeof head.sha === 'string' ? head.sha : undefined;
    // The commits the merge brings name issues too, in their messages.
    if (headSha !== undefined) {
      for (const commit of (await compared(state, place.scope, baseSha, headSha)).ahead) texts.push(commit.message);
    }
    const squashed = how !== 'merge';
    await keepMerge(state, place.scope, {
      sha,
      message: made.message,
      date: made.timestamp,
      base: baseSha,
      head: headSha,
      squashed,
    });
    await moveBranch(state, place, base, made);
  }
  // Into the default branch, its closing keywords close the issues they name.
  if (base === String(place.repository?.default_branch ?? 'main')) {
    await closeReferenced(state, place, texts);
  }
  return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
};
