/**
 * @mockpoint/core: the runtime-agnostic mockpoint app, its schemas, errors,
 * stores and typed client. No `node:` imports here; the LevelDB store lives on
 * the `@mockpoint/core/level` subpath.
 *
 * @module
 */

export { type CachedResponse, ResponseCache } from './cache.js';
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
export type { ResolvedAppOptions } from './context.js';
export { type CreateAppOptions, createApp, type MockpointApp } from './create-app.js';
export type { EndpointAnswer, FaultAnswer, RespondAnswer } from './endpoint-answer.js';
export { EndpointHandler, type EndpointHandlerOptions, READ_METHODS } from './endpoint-handler.js';
export { EndpointService } from './endpoints.js';
export {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  isMockpointError,
  isOwnError,
  MockpointError,
  type MockpointErrorOptions,
  OWN_ERROR,
} from './errors.js';
export { ALLOWED_HOST_RULE, isAllowedHost } from './host-guard.js';
export { type Journal, type JournalPage, RequestJournal, type RequestJournalOptions } from './journal.js';
export type { JournalEntry, QueuedMark, RecordedRequest } from './journal-entry.js';
export {
  JsonSyntaxError,
  type JsonSyntaxProblem,
  JsonText,
  jsonTextOf,
  MAX_JSON_DEPTH,
  type ScannedJson,
  scanJson,
  stringifyExact,
} from './json-text.js';
export {
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_JOURNAL_MAX_BYTES,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  LIMIT_KEYS,
  type LimitOptions,
  pickLimits,
  resolveLimits,
} from './limits.js';
export {
  type AnswerQueue,
  FAULTS,
  type Fault,
  MAX_ANSWER_TIMES,
  MAX_QUEUED_ANSWERS,
  type QueuedAnswer,
  type QueuedAnswerInput,
  type TakenAnswer,
} from './queue/answer-queue.js';
export { MemoryAnswerQueue, type MemoryAnswerQueueOptions } from './queue/memory/index.js';
export { isJsonSubset, matchesRequest, type RequestFilter } from './request-filter.js';
export {
  createSchemas,
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  type EndpointRecord,
  isValidName,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  type Schemas,
  STATUS_CODE_RANGE,
} from './schemas.js';
export {
  type CountOptions,
  type EndpointStore,
  KeyedMutex,
  type ListOptions,
  type ListPage,
  type StoreChanges,
  type StoreHealth,
} from './store/store.js';
export { MemoryStore } from './stores/memory/index.js';
export { VERSION } from './version.js';
