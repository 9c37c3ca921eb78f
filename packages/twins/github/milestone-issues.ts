/**
 * A repository's milestones as its issues' lists and its issues see them: the `milestone` filter
 * of `issues.listForRepo` refused where it names no milestone of the repository (GitHub's `422
 * Validation Failed`, `invalid` on `milestone`; `*` and `none` always taken), and a milestone
 * deleted (`issues.deleteMilestone`) taken off the issues and pull requests carrying it, which
 * then carry `milestone: null`, as on GitHub (no event of theirs).
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';
import { invalid } from './lists.js';
import type { RepoOperation, RepoPlace } from './pushes.js';

const REPO = '/repos/{owner}/{repo}';
const MILESTONES = `${REPO}/milestones`;
const CARRIERS = [`${REPO}/issues`, `${REPO}/pulls`];

/** The milestone `number` taken off each issue and pull request of the repository carrying it. */
async function clearOnIssues(state: FlowState, place: RepoPlace, number: number): Promise<void> {
  const carries = (object: Record<string, unknown>) =>
    (object.milestone as { number?: unknown } | null | undefined)?.number === number;
  for (const template of CARRIERS) {
    for (const object of await state.objects(template, place.values)) {
      if (!carries(object)) continue;
      await state.amend(template, place.values, String(object.number), (kept) => {
        if (carries(kept)) kept.milestone = null;
      });
    }
  }
}

/** Refuses an issue list's `milestone` of no milestone of the repository; clears a deleted one off its issues. */
export const githubMilestoneIssues: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  if (method === 'GET' && template === `${REPO}/issues`) {
    const asked = request.query.milestone;
    if (asked === undefined || asked === '' || asked === '*' || asked === 'none') return undefined;
    const text = String(asked);
    const milestones = await state.objects(MILESTONES, place.values);
    const found = /^\d{1,9}$/.test(text) && milestones.some((one) => one.number === Number(text));
    return found ? undefined : invalid('Issue', 'milestone', text);
  }
  if (method !== 'DELETE' || template !== `${MILESTONES}/{milestone_number}`) return undefined;
  const number = Number(matched.values.milestone_number);
  const milestones = await state.objects(MILESTONES, place.values);
  // A delete the engine answers 404 (no such milestone) changes nothing.
  if (!Number.isInteger(number) || !milestones.some((one) => one.number === number)) return undefined;
  await clearOnIssues(state, place, number);
  return undefined;
};
