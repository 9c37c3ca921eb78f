/**
 * `@mockpoint/core/client`: the typed client, the error model and the input
 * rules, without the server side (no Hono, no zod). For browsers and other
 * places where the bundle size counts; everything here is also exported from
 * the main entry.
 *
 * @module
 */

export {
  type ClientOptions,
  ConnectionError,
  createClient,
  type Endpoint,
  type EndpointDefinition,
  type Fetchable,
  type Health,
  type JournalAnswer,
  type ListAnswer,
  type ListQuery,
  type MockpointClient,
  type QuietOptions,
  type SummaryAnswer,
  type WaitOptions,
} from './client.js';
export { type ErrorBody, type ErrorCode, isMockpointError, MockpointError } from './errors.js';
export type { JournalPage } from './journal.js';
export type { JournalEntry, QueuedMark } from './journal-entry.js';
export type { Fault, QueuedAnswer, QueuedAnswerInput } from './queue/answer-queue.js';
export type { RequestFilter } from './request-filter.js';
export {
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  isValidName,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  STATUS_CODE_RANGE,
} from './rules.js';
export type { EndpointRecord } from './schemas.js';
export { VERSION } from './version.js';
