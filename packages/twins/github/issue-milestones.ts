/**
 * An issue's `milestone` as GitHub keeps it (issue #73): sent as the milestone's number (`issues.create`,
 * `issues.update`), answered as the milestone itself, one of the repository's (`null` clears it); a
 * number the repository has no milestone of is GitHub's `422 Validation Failed` (`invalid`, as the
 * description's `validation-error` shape says; the entry's words are as remembered).
 *
 * @module
 */
import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { invalidField } from './events.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
const PULLS = '/repos/{owner}/{repo}/pulls';
const MILESTONES = '/repos/{owner}/{repo}/milestones';

/**
 * The milestone `sent.milestone` names in the request's repository: `{ milestone }` to keep (the
 * object, or `null`), an error, or `undefined` when none was sent or `template` is not an issue's
 * (an update's: a pull request's too, changed through its issue as GitHub sets its milestone).
 */
export async function issueMilestone(
  template: string,
  sent: Record<string, unknown>,
  kit: FlowKit,
  update = false,
): Promise<{ milestone: Record<string, unknown> | null } | { error: FlowError } | undefined> {
  if ((template !== ISSUES && (!update || template !== PULLS)) || !('milestone' in sent)) return undefined;
  const asked = sent.milestone;
  if (asked === null) return { milestone: null };
  const number = typeof asked === 'string' && /^\d{1,9}$/.test(asked) ? Number(asked) : asked;
  // The repository's own, kept where its issues are (a renamed one's under its first name, whatever URL each has).
  const found =
    typeof number === 'number'
      ? (await kit.objects(MILESTONES, kit.values)).find((one) => one.number === number)
      : undefined;
  if (found !== undefined) return { milestone: found };
  const value = typeof asked === 'string' ? asked.slice(0, 200) : asked;
  return {
    error: invalidField('Issue', 'milestone', { value }),
  };
}
