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

export type { RateLimitStyle, RouteRateLimit } from './api/rate-limit.js';
export type { JsonSchema, RouteValidation, ValidationIssue, ValidationMark } from './api/route-validation.js';
// Everything the browser entry (`@mockpoint/core/client`) has: the client, its
// errors, the wire types and the input rules. One list, so the two cannot drift.
export * from './client/index.js';
export type { Clock, ClockView } from './clock/clock.js';
export {
  type GraphqlAnswerText,
  type GraphqlCall,
  type GraphqlRunner,
  type GraphqlRunnerOptions,
  inlineGraphqlRunner,
  type StoredGraphqlSchema,
} from './graphql/graphql-runner.js';
export { type ApiEncoders, type Encoder, gzipEncoder } from './http/api-encoding.js';
export { type CreateAppOptions, createApp, type MockpointApp } from './http/create-app.js';
// The browser entry's matcher reads a journal entry's `graphql` mark; this one parses the request.
export { firstMismatch, matchesRequest } from './journal/graphql-filter.js';
export type { Journal } from './journal/journal.js';
export type { AnswerQueue } from './queue/answer-queue.js';
export type { LimitOptions } from './registry/limits.js';
export {
  NAME_SETTINGS,
  SETTING_KINDS,
  type SettingKind,
  type SettingValue,
  type StoredSetting,
} from './settings/name-settings.js';
// What a store of one's own implements its settings methods with (getSetting, setSetting, settingNames).
export type { NameSetting } from './settings/setting-declaration.js';
export type { Backend, BackendParts } from './store/backend.js';
export { type MemoryBackendOptions, memoryBackend } from './store/memory/backend.js';
export { MemoryStore } from './store/memory/memory-store.js';
export type { EndpointStore } from './store/store.js';
export { WorkBudget, type WorkBudgetOptions } from './turns/work-budget.js';
export type { TwinCatalog, TwinSource } from './twin/twin-table.js';
export {
  type DeliverySend,
  fetchDeliverySend,
  type SendAnswer,
  type SendRequest,
} from './webhook/delivery-send.js';
export type { DeliveryStore } from './webhook/delivery-store.js';
