/**
 * @mockpoint/core/internal: what mockpoint's own packages share beyond the
 * public API. Not a public API: it may change in any release.
 *
 * @module
 */

export { ALWAYS_REDACTED_TEXT } from './api/proxy-answer.js';
export type { RateLimitShape, RateTake, RefusedTake } from './api/rate-limit-headers.js';
export { readBodyBytes } from './codec/body.js';
export { NOT_FORWARDED } from './codec/hop-by-hop.js';
export { quoted } from './codec/quoted.js';
export { paramName, requestValidation } from './openapi/openapi-request.js';
export { toJsonSchema } from './openapi/openapi-schema.js';
export { matchPathPattern, PathPatternError, parsePathPattern } from './pattern/path-pattern.js';
export { ERROR_LIST, ERRORS, type ErrorSpec } from './registry/error-codes.js';
export { isOwnError, MockpointError, type MockpointErrorOptions, OWN_ERROR } from './registry/errors.js';
export { hasShape, thrownMessage } from './registry/shape.js';
export type {
  HeaderReader,
  HeaderVerdict,
  MacPlan,
  SchemeSignInput,
  SignatureSchemeDefinition,
} from './signing/signature-schemes.js';
export { signatureSchemes } from './signing/signature-schemes.js';
export { packageTwinCatalog, type TwinPackage } from './twin/package-catalog.js';
// What a provider's flows (a folder of @mockpoint/twins, docs/development.md "Adding a provider")
// are written against: types only, so a provider takes nothing of the core at run time.
export type {
  ActionOutcome,
  FlowError,
  FlowKit,
  FlowState,
  FlowTools,
  ListOutcome,
  OwnAnswer,
  OwnOperation,
  OwnRequest,
  TwinChange,
  TwinFlows,
} from './twin/twin-flows.js';
export type { MatchedOperation } from './twin/twin-operation.js';
export type { FixtureStep, ProviderTrigger, TriggerField, TwinProvider } from './twin/twin-provider.js';
export type { SentAnswer } from './verify/answer-conformance.js';

/**
 * `mockpoint verify`'s checks (an OpenAPI document read, routes checked against it),
 * and answers as sent checked against a document (verify/answer-conformance.ts),
 * loaded when a verify runs: YAML and the JSON Schema validator stay out of every
 * other command's start (`mockpoint --version` loads no heavy module).
 */
export async function loadVerify(): Promise<{
  readOpenApi: typeof import('./verify/openapi-document.js').readOpenApi;
  verifyRoutes: typeof import('./verify/verify-routes.js').verifyRoutes;
  readLiveOptions: typeof import('./verify/live-options.js').readLiveOptions;
  AnswerConformance: typeof import('./verify/answer-conformance.js').AnswerConformance;
}> {
  const [{ readOpenApi }, { verifyRoutes }, { readLiveOptions }, { AnswerConformance }] = await Promise.all([
    import('./verify/openapi-document.js'),
    import('./verify/verify-routes.js'),
    import('./verify/live-options.js'),
    import('./verify/answer-conformance.js'),
  ]);
  return { readOpenApi, verifyRoutes, readLiveOptions, AnswerConformance };
}
