/**
 * The issues a merged pull request closes, as GitHub closes them: a merge into the repository's
 * default branch closes each open issue of the repository that the pull request's body, the merge
 * commit's message sent or the messages of the commits it brings name after a closing keyword (`close`, `closes`, `closed`, `fix`, `fixes`,
 * `fixed`, `resolve`, `resolves`, `resolved`, any case, then `#N`, a colon allowed between), each
 * with `state_reason: "completed"`, `closed_by` the merger and its `issues.closed` sent. An
 * issue of another repository (`owner/repo#N`) is not closed: the twin closes only its own.
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';
import { GITHUB_USER } from './issues.js';
import type { RepoPlace } from './pushes.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
/** A closing keyword and the issue it names, not after a word character or a `/` (another repository's). */
const CLOSING = /(?<![\w/])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+#(\d{1,9})\b/gi;
/** Most issues one merge closes (GitHub reads at most ten references of a pull request's text). */
const MAX_CLOSED = 10;

/** The issue numbers `texts` close, in the order named, each once. */
function closedNumbers(texts: readonly unknown[]): string[] {
  const numbers: string[] = [];
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const match of text.slice(0, 65_536).matchAll(CLOSING)) {
      const number = String(Number(match[1]));
      if (!numbers.includes(number)) numbers.push(number);
    }
  }
  return numbers.slice(0, MAX_CLOSED);
}

/** Closes the open issues of the repository at `place` that the merged pull request's `texts` name. */
export async function closeReferenced(state: FlowState, place: RepoPlace, texts: readonly unknown[]): Promise<void> {
  const numbers = closedNumbers(texts);
  if (numbers.length === 0) return;
  const now = new Date(state.now()).toISOString();
  for (const number of numbers) {
    let was: unknown;
    const closed = await state.amend(ISSUES, place.values, number, (issue) => {
      was = issue.state;
      if (issue.state !== 'open') return;
      Object.assign(issue, {
        state: 'closed',
        state_reason: 'completed',
        closed_at: now,
        updated_at: now,
        closed_by: GITHUB_USER,
      });
    });
    if (closed === undefined || was !== 'open') continue;
    state.emit({
      kind: 'updated',
      template: ISSUES,
      object: closed,
      before: 'open',
      values: place.values,
      events: ['issues.closed'],
    });
  }
}
