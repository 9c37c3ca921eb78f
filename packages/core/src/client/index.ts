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

export type { AnswerContent, Fault, QueuedAnswer, QueuedAnswerInput } from '../api/answer-json.js';
export type { AnswerStream, StreamEnd, StreamEvent, StreamFormat } from '../api/answer-stream.js';
export type {
  SocketClose,
  SocketFrame,
  SocketInfo,
  SocketReply,
  WebSocketAnswer,
} from '../api/answer-websocket.js';
export type { ChaosFault, ChaosSettings } from '../api/chaos.js';
export type { ClockChange, ClockJson } from '../api/clock-json.js';
export type {
  CoverageEndpoint,
  CoverageQuery,
  CoverageReport,
  CoverageRoute,
  UnmatchedRequest,
} from '../api/coverage-json.js';
export type {
  Delivery,
  DeliveryAttempt,
  DeliveryInput,
  DeliverySign,
  DeliveryState,
  TamperMode,
} from '../api/delivery-json.js';
export type {
  GraphqlFilter,
  GraphqlMark,
  GraphqlOperationMark,
  GraphqlPush,
  GraphqlSchemaBody,
} from '../api/graphql-json.js';
export type { GrpcDefinitions, GrpcDefinitionsInput, GrpcFilter, GrpcMark } from '../api/grpc-json.js';
export type {
  JournalEntry,
  JournalEvent,
  JournalPage,
  LiveRequest,
  QueuedMark,
  RequestFilter,
  SocketDirection,
  SocketMark,
} from '../api/journal-json.js';
export type {
  CreatedNamespace,
  NamespaceInfo,
  NamespaceRequest,
  UnhandledRequest,
} from '../api/namespace-json.js';
export type { AnswerHeaders, Route, RouteAnswer, RouteInput } from '../api/route.js';
export type { EndpointRecord } from '../api/schemas.js';
export {
  VERIFY_FINDING_CODES,
  type VerifyEntry,
  type VerifyFinding,
  type VerifyFindingCode,
  type VerifyNote,
  type VerifyReport,
  type VerifyRequest,
  type VerifyUpstream,
} from '../api/verify-json.js';
export type { Duration } from '../codec/duration.js';
export { JsonSyntaxError, JsonText, scanJson } from '../codec/json-text.js';
export { maskCredentials, reportedUrl } from '../codec/shown-url.js';
export { type FilterSubject, firstMismatch, matchesRequest } from '../journal/request-filter.js';
export type { HostEntry } from '../pattern/host-mapping.js';
export type { Latency, LognormalLatency, NormalLatency, UniformLatency } from '../random/latency.js';
export { type ErrorBody, type ErrorCode, isMockpointError, MockpointError } from '../registry/errors.js';
export {
  DEFAULT_DELAY,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_STATUS_CODE,
  isValidName,
  NAME_PATTERN,
  NAME_RULE,
  PREFIX_PATTERN,
  STATUS_CODE_RANGE,
} from '../registry/rules.js';
export { VERSION } from '../registry/version.js';
export type {
  SignatureCheckStatus,
  SignatureInput,
  SignatureMark,
  SignatureSchemeView,
  SignatureView,
} from '../signing/signature-settings.js';
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
export type { Twin, TwinInput, TwinTrigger, TwinTriggered } from './twin.js';
export type { WatchRequestsOptions } from './watch-requests.js';
