/**
 * @mockpoint/core: the runtime-agnostic mockpoint app, its schemas, errors,
 * stores and typed client. No `node:` imports here; the LevelDB store lives on
 * the `@mockpoint/core/level` subpath.
 *
 * @module
 */

export type { EndpointAnswer, FaultAnswer, RespondAnswer } from './answer/endpoint-answer.js';
export { EndpointHandler, type EndpointHandlerOptions, READ_METHODS } from './answer/endpoint-handler.js';
export type { AnswerQueue } from './answer/queue/answer-queue.js';
export { MemoryAnswerQueue, type MemoryAnswerQueueOptions } from './answer/queue/memory/index.js';
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
} from './client/client.js';
export type { WatchRequestsOptions } from './client/watch-requests.js';
export { type CachedResponse, ResponseCache } from './http/cache.js';
export type { ResolvedAppOptions } from './http/context.js';
export { type CreateAppOptions, createApp, type MockpointApp } from './http/create-app.js';
export { EndpointService } from './http/endpoints.js';
export { isAllowedHost } from './http/host-guard.js';
export {
  type Journal,
  type JournalFollower,
  type JournalSince,
  type NamedEntry,
  RequestJournal,
  type RequestJournalOptions,
} from './journal/journal.js';
export type { RecordedRequest } from './journal/journal-entry.js';
export type { JournalFeedOptions } from './journal/journal-feed.js';
export { isJsonSubset, matchesRequest } from './journal/request-filter.js';
export { MemoryStore } from './store/memory/index.js';
export {
  type CountOptions,
  type EndpointStore,
  KeyedMutex,
  type ListOptions,
  type StoreChanges,
  type StoreHealth,
} from './store/store.js';
export {
  FAULTS,
  type Fault,
  MAX_ANSWER_TIMES,
  MAX_QUEUED_ANSWERS,
  type QueuedAnswer,
  type QueuedAnswerInput,
  type TakenAnswer,
} from './wire/answer-json.js';
export {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  isMockpointError,
  isOwnError,
  MockpointError,
  type MockpointErrorOptions,
  OWN_ERROR,
} from './wire/errors.js';
export type {
  JournalEntry,
  JournalEvent,
  JournalPage,
  LiveRequest,
  QueuedMark,
  RequestFilter,
} from './wire/journal-json.js';
export {
  JsonSyntaxError,
  type JsonSyntaxProblem,
  JsonText,
  jsonTextOf,
  MAX_JSON_DEPTH,
  type ScannedJson,
  scanJson,
  stringifyExact,
} from './wire/json-text.js';
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
} from './wire/limits.js';
export { ALLOWED_HOST_RULE, isOriginRule, normalizeOrigin } from './wire/rules.js';
export {
  createSchemas,
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  type EndpointRecord,
  isValidName,
  type ListPage,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  type Schemas,
  STATUS_CODE_RANGE,
} from './wire/schemas.js';
export { VERSION } from './wire/version.js';
