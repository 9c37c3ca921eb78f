/**
 * The fault kind: a network failure instead of an answer (reset, close after
 * part of the body, hang); a form of the plain answer.
 *
 * @module
 */

import { answerKind } from '../answer-kind.js';

export const faultKind = answerKind({
  key: 'fault',
  noun: 'a fault answer',
  code: 'INVALID_FAULT',
  schema: (parts) => parts.fault,
  plain: true,
  forms: { wiremock: true, mockoon: false },
});
