/**
 * @mockpoint/core: the runtime-agnostic mockpoint app (`createApp`), the typed
 * client (`createClient`), its errors, exact JSON text and the memory store —
 * what a user calls. No `node:` imports here. Everything else has its own
 * subpath: `/client` (browsers), `/defaults` (version and limits, no imports),
 * `/node`, `/bun`, `/deno`, `/workers` (serving), `/level` and `/redis` (stores,
 * with their optional peer dependencies).
 *
 * @example An app and a client for it, with no socket (both from this entry):
 * ```ts
 * const client = createClient({ baseUrl: 'http://mockpoint.local', app: createApp() });
 * await client.add({ name: 'hook', data: { ok: true } });
 * ```
 *
 * @module
 */

export type { AnswerQueue } from './answer/queue/answer-queue.js';
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
  type ListedRecord,
  type ListQuery,
  type MockpointClient,
  type QuietOptions,
  type RoutesOnlyEntry,
  type SummaryAnswer,
  type WaitOptions,
} from './client/client.js';
export type { WatchRequestsOptions } from './client/watch-requests.js';
export { type ApiEncoders, type Encoder, gzipEncoder } from './http/api-encoding.js';
export { type CreateAppOptions, createApp, type MockpointApp } from './http/create-app.js';
export type { Journal } from './journal/journal.js';
export { type FilterSubject, firstMismatch, matchesRequest } from './journal/request-filter.js';
export { type Backend, type BackendParts, type MemoryBackendOptions, memoryBackend } from './store/backend.js';
export { MemoryStore } from './store/memory/index.js';
export type { EndpointStore } from './store/store.js';
export {
  type DeliverySend,
  fetchDeliverySend,
  type SendAnswer,
  type SendRequest,
} from './webhook/delivery-send.js';
export type { DeliveryStore } from './webhook/delivery-store.js';
export type { Fault, QueuedAnswer, QueuedAnswerInput } from './wire/answer-json.js';
export type { AnswerStream, StreamEnd, StreamEvent, StreamFormat } from './wire/answer-stream.js';
export type {
  Delivery,
  DeliveryAttempt,
  DeliveryInput,
  DeliverySign,
  DeliveryState,
  TamperMode,
} from './wire/delivery-json.js';
export { type ErrorBody, type ErrorCode, isMockpointError, MockpointError } from './wire/errors.js';
export type { JournalEntry, JournalEvent, JournalPage, LiveRequest, RequestFilter } from './wire/journal-json.js';
export { JsonSyntaxError, JsonText } from './wire/json-text.js';
export type { LimitOptions } from './wire/limits.js';
export type { AnswerHeaders, Route, RouteAnswer, RouteInput } from './wire/route.js';
export type { JsonSchema, RouteValidation, ValidationIssue, ValidationMark } from './wire/route-validation.js';
export type { EndpointRecord } from './wire/schemas.js';
export { maskCredentials, reportedUrl } from './wire/shown-url.js';
export type {
  SignatureCheckStatus,
  SignatureInput,
  SignatureMark,
  SignatureView,
} from './wire/signature-settings.js';
