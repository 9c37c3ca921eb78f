/**
 * A pull request's branches and state as GitHub keeps them (issue #73):
 *
 * - `head` and `base` are the branches sent (`feature`, or `owner:feature`), `label` the owner's
 *   login and the branch; `head.sha` the head branch's commit when the pull request is made, and
 *   `base.sha` the base branch's, where the twin holds the branch's ref (refs.ts); a push to the
 *   head branch moves the `head.sha` of each open pull request of it (pushes.ts, with its
 *   `synchronize`) and takes its `base.sha` again from the base branch (a push to the base alone
 *   does not, as on GitHub); a closed one's stay. Where the twin holds no ref of a branch, its `sha` is the document's example.
 * - A merged pull request cannot be reopened: `pulls.update({ state: 'open' })` of one is GitHub's
 *   `422 Validation Failed`; a closed one not merged reopens.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { branchSha, holdsRefs, type RefsReader } from './refs.js';

const PULLS = '/repos/{owner}/{repo}/pulls';

/** The key the repository's refs are kept under: the scope its collections are kept in, lower case. */
function scopeOf(values: Readonly<Record<string, string>>): string {
  return `${values.owner ?? ''}/${values.repo ?? ''}`.toLowerCase();
}

/**
 * A pull request's `head` or `base` of the branch sent (`feature`, or `owner:feature`) in the
 * repository of `owner`: its `ref`, `label`, and `sha` the branch's commit where the twin holds
 * its ref in this repository (a branch of another owner's fork: the example's).
 */
async function branchOf(
  reader: RefsReader,
  values: Readonly<Record<string, string>>,
  example: unknown,
  sent: unknown,
): Promise<unknown> {
  if (typeof sent !== 'string') return example;
  const colon = sent.indexOf(':');
  const ref = sent.slice(colon + 1);
  const owner = values.owner ?? '';
  const from = colon === -1 ? owner : sent.slice(0, colon);
  const had = typeof example === 'object' && example !== null ? (example as Record<string, unknown>) : {};
  const branch: Record<string, unknown> = { ...had, ref, label: `${from}:${ref}` };
  if (from.toLowerCase() === owner.toLowerCase() && ref !== '') {
    const sha = await branchSha(reader, scopeOf(values), ref);
    if (sha !== undefined) branch.sha = sha;
  }
  return branch;
}

/**
 * Of a new pull request's `head` and `base`, those naming a branch of its repository that the
 * twin does not hold, where it holds the repository's refs (GitHub's `422` on each; a repository
 * none of whose refs the twin holds is taken as having every branch sent). A `head` of another
 * owner's fork (`owner:feature`) is not checked: the twin holds no forks.
 */
async function unknownBranches(kit: FlowKit, sent: Record<string, unknown>): Promise<string[]> {
  const scope = scopeOf(kit.values);
  if (!(await holdsRefs(kit, scope))) return [];
  const owner = (kit.values.owner ?? '').toLowerCase();
  const unknown: string[] = [];
  for (const field of ['head', 'base']) {
    const value = sent[field];
    if (typeof value !== 'string') continue;
    const colon = value.indexOf(':');
    if (colon !== -1 && value.slice(0, colon).toLowerCase() !== owner) continue;
    if ((await branchSha(kit, scope, value.slice(colon + 1))) === undefined) unknown.push(field);
  }
  return unknown;
}

/** A new pull request's `head` and `base`, their commits where the twin holds their refs; `undefined`: made. */
export async function pullCreating(
  template: string,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): Promise<FlowError | undefined> {
  if (template !== PULLS) return undefined;
  const unknown = await unknownBranches(kit, sent);
  if (unknown.length > 0) {
    return validationFailed(
      'invalid',
      unknown.map((field) => ({ resource: 'PullRequest', field, code: 'invalid' })),
    );
  }
  const example = kit.example(template);
  object.head = await branchOf(kit, kit.values, example.head, sent.head);
  object.base = await branchOf(kit, kit.values, example.base, sent.base);
  return undefined;
}

/**
 * GitHub's refusal of an update of a pull request: reopening a merged one (`state: "open"`) is
 * `422 Validation Failed`; `undefined`: taken.
 */
export function pullUpdateRefused(
  template: string,
  stored: Record<string, unknown>,
  sent: Record<string, unknown>,
): FlowError | undefined {
  if (template !== PULLS || stored.merged !== true || sent.state !== 'open') return undefined;
  // The description documents the error's shape (`validation-error`), not its words: GitHub's, as remembered.
  const message = 'state cannot be changed. The pull request cannot be reopened.';
  return validationFailed('custom', [{ resource: 'PullRequest', code: 'custom', field: 'state', message }]);
}
