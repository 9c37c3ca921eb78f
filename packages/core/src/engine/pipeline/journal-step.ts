/**
 * The journal, as the pipeline's outermost step: it passes every request on
 * and, once a verdict comes back out through the steps (each step's `after`,
 * step.ts), records the request as the verdict says — the answer as it will
 * be sent (the chaos step's latency and bandwidth applied already, since it
 * sits inside) — and lets a stream that hangs go at the name's next change.
 * {@link journalAnswer} is the one place an HTTP request's entry is written:
 * the cached plain record's shortcut (EndpointHandler) calls it too.
 *
 * @module
 */

import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import { answered } from '../../journal/answer-record.js';
import type { Journal } from '../../journal/journal.js';
import type { AnswerMark, RecordedRequest } from '../../journal/journal-entry.js';
import { JOURNAL_NAME_LIMIT } from '../../registry/limits.js';
import type { Exchange } from './exchange.js';
import { FIRST_BYTES, type Step, type Verdict } from './step.js';
import { heldUntilChange } from './verdicts.js';

/**
 * Records `request` to `name` answered with `answer` (its status `status`, how:
 * `mark`); a name too long for the journal is not recorded. The journal owns
 * `request` afterwards.
 */
export function journalAnswer(
  journal: Journal,
  name: string,
  request: RecordedRequest,
  answer: EndpointAnswer,
  status: number,
  mark: AnswerMark,
): void {
  if (name.length > JOURNAL_NAME_LIMIT) return;
  answered(request, answer);
  journal.record(name, request, status, mark);
}

/**
 * The verdict journaled (when it has a mark: a proxy route journals once its
 * upstream has answered, a failure not at all), with the state it moved; its
 * stream held until the name changes when it ends with `hang`.
 */
export function journaled(verdict: Verdict, exchange: Exchange): Verdict {
  const { answer } = verdict;
  let { mark } = verdict;
  if (mark !== undefined) {
    const state = exchange.journalState();
    if (state !== undefined) mark = { ...mark, state };
    journalAnswer(
      exchange.parts.journal,
      exchange.name,
      exchange.request,
      answer,
      verdict.status ?? answer.status,
      mark,
    );
  }
  const held = heldUntilChange(exchange, answer);
  return held === answer ? verdict : { ...verdict, answer: held };
}

export const journalStep: Step = {
  name: 'journal',
  run: () => undefined,
  passes: () => true,
  reads: FIRST_BYTES,
  after: journaled,
};
