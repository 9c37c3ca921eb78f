/**
 * How a panel shows a write that failed: one line in its problem slot, and the
 * admin-token field (see token-field.ts) when the server said `UNAUTHORIZED`.
 *
 * @module
 */
import { failureMessage, isApiFailure } from './api.js';
import { replaceChildren } from './dom.js';
import { report } from './report.js';
import { tokenField } from './token-field.js';

/**
 * Writes `Could not <what>: <CODE>: <message>` into `problem` (an unexpected
 * error is reported too); on `UNAUTHORIZED`, adds the token field (input `tokenId`),
 * whose "Use token and retry" calls `retry`.
 */
export function showWriteFailure(
  problem: HTMLElement,
  what: string,
  error: unknown,
  tokenId: string,
  retry: () => void,
): void {
  if (!isApiFailure(error)) report(error);
  const code = isApiFailure(error) ? `${error.code}: ` : '';
  replaceChildren(problem, `Could not ${what}: ${code}${failureMessage(error)}`);
  if (isApiFailure(error) && error.code === 'UNAUTHORIZED') problem.append(tokenField({ id: tokenId, onUse: retry }));
}
