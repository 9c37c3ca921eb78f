/**
 * `@mockpoint/core/client`: the typed client, the error model and the input
 * rules, without the server side (no Hono, no zod, no GraphQL parser: see
 * client/browser-bundle.test.ts). For browsers and other places where the
 * bundle size counts; everything here is also exported from the main entry.
 * The matchers `matchesRequest` and `firstMismatch` here read a journal entry's
 * `graphql` mark; the main entry's, of the same names, parse the request.
 *
 * @module
 */

export { type FilterSubject, firstMismatch, matchesRequest } from '../journal/request-filter.js';
export type { AnswerContent, Fault, QueuedAnswer, QueuedAnswerInput } from '../wire/answer-json.js';
export type { AnswerStream, StreamEnd, StreamEvent, StreamFormat } from '../wire/answer-stream.js';
export type {
  SocketClose,
  SocketFrame,
  SocketInfo,
  SocketReply,
  WebSocketAnswer,
} from '../wire/answer-websocket.js';
export type { ChaosFault, ChaosSettings } from '../wire/chaos.js';
export type { ClockChange, ClockJson } from '../wire/clock-json.js';
export type {
  CoverageEndpoint,
  CoverageQuery,
  CoverageReport,
  CoverageRoute,
  UnmatchedRequest,
} from '../wire/coverage-json.js';
export type {
  Delivery,
  DeliveryAttempt,
  DeliveryInput,
  DeliverySign,
  DeliveryState,
  TamperMode,
} from '../wire/delivery-json.js';
export type { Duration } from '../wire/duration.js';
export { type ErrorBody, type ErrorCode, isMockpointError, MockpointError } from '../wire/errors.js';
export type {
  GraphqlFilter,
  GraphqlMark,
  GraphqlOperationMark,
  GraphqlPush,
  GraphqlSchemaBody,
} from '../wire/graphql-json.js';
export type { GrpcDefinitions, GrpcDefinitionsInput, GrpcFilter, GrpcMark } from '../wire/grpc-json.js';
export type { HostEntry } from '../wire/host-mapping.js';
export type {
  JournalEntry,
  JournalEvent,
  JournalPage,
  LiveRequest,
  QueuedMark,
  RequestFilter,
  SocketDirection,
  SocketMark,
} from '../wire/journal-json.js';
export { JsonSyntaxError, JsonText, scanJson } from '../wire/json-text.js';
export type { Latency, LognormalLatency, NormalLatency, UniformLatency } from '../wire/latency.js';
export type {
  CreatedNamespace,
  NamespaceInfo,
  NamespaceRequest,
  UnhandledRequest,
} from '../wire/namespace-json.js';
export type { AnswerHeaders, Route, RouteAnswer, RouteInput } from '../wire/route.js';
export {
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  isValidName,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  STATUS_CODE_RANGE,
} from '../wire/rules.js';
export type { EndpointRecord } from '../wire/schemas.js';
export { maskCredentials, reportedUrl } from '../wire/shown-url.js';
export type {
  SignatureCheckStatus,
  SignatureInput,
  SignatureMark,
  SignatureView,
} from '../wire/signature-settings.js';
export {
  MAX_VERIFY_CONCURRENCY,
  MAX_VERIFY_FINDINGS,
  MAX_VERIFY_TIMEOUT_MS,
  MAX_VERIFY_TOTAL_MS,
  VERIFY_FINDING_CODES,
  type VerifyEntry,
  type VerifyFinding,
  type VerifyFindingCode,
  type VerifyNote,
  type VerifyReport,
  type VerifyRequest,
  type VerifyUpstream,
} from '../wire/verify-json.js';
export { VERSION } from '../wire/version.js';
export {
  type ClientOptions,
  ConnectionError,
  createClient,
  type Endpoint,
  type EndpointDefinition,
  type Fetchable,
  type Health,
  type ItemOptions,
  type JournalAnswer,
  type ListAnswer,
  type ListedRecord,
  type ListQuery,
  type MergePatch,
  type MockpointClient,
  type QuietOptions,
  type RoutesOnlyEntry,
  type SchemaOnlyEntry,
  type SummaryAnswer,
  type WaitOptions,
} from './client.js';
export type { PactRequest } from './contracts.js';
export type { Twin, TwinInput } from './twin.js';
export type { WatchRequestsOptions } from './watch-requests.js';
