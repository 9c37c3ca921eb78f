/**
 * @mockpoint/core/internal: what mockpoint's own packages share beyond the
 * public API. Not a public API: it may change in any release.
 *
 * @module
 */

export { ERROR_LIST, ERRORS, type ErrorSpec } from './wire/error-codes.js';
export { isOwnError, MockpointError, type MockpointErrorOptions, OWN_ERROR } from './wire/errors.js';
export { NOT_FORWARDED } from './wire/hop-by-hop.js';
export { paramName, requestValidation } from './wire/openapi-request.js';
export { toJsonSchema } from './wire/openapi-schema.js';
export { matchPathPattern, PathPatternError, parsePathPattern } from './wire/path-pattern.js';
export { ALWAYS_REDACTED_TEXT } from './wire/proxy-answer.js';
export { quoted } from './wire/quoted.js';
export { hasShape, thrownMessage } from './wire/shape.js';

/**
 * `mockpoint verify`'s checks (an OpenAPI document read, routes checked against it),
 * loaded when a verify runs: YAML and the JSON Schema validator stay out of every
 * other command's start (`mockpoint --version` loads no heavy module).
 */
export async function loadVerify(): Promise<{
  readOpenApi: typeof import('./verify/openapi-document.js').readOpenApi;
  verifyRoutes: typeof import('./verify/verify-routes.js').verifyRoutes;
  readLiveOptions: typeof import('./verify/live-options.js').readLiveOptions;
}> {
  const [{ readOpenApi }, { verifyRoutes }, { readLiveOptions }] = await Promise.all([
    import('./verify/openapi-document.js'),
    import('./verify/verify-routes.js'),
    import('./verify/live-options.js'),
  ]);
  return { readOpenApi, verifyRoutes, readLiveOptions };
}
