/**
 * @mockpoint/core/internal: what mockpoint's own packages share beyond the
 * public API. Not a public API: it may change in any release.
 *
 * @module
 */

export { type EventStreamCodecModule, useEventStreamCodec } from './answer/llm/bedrock-stream.js';
export { readOpenApi } from './verify/openapi-document.js';
export { verifyRoutes } from './verify/verify-routes.js';
export { ERROR_LIST, ERRORS, type ErrorSpec } from './wire/error-codes.js';
export { isOwnError, MockpointError, type MockpointErrorOptions, OWN_ERROR } from './wire/errors.js';
export { NOT_FORWARDED } from './wire/hop-by-hop.js';
export { toJsonSchema } from './wire/openapi-schema.js';
export { matchPathPattern, PathPatternError, parsePathPattern } from './wire/path-pattern.js';
export { ALWAYS_REDACTED_TEXT } from './wire/proxy-answer.js';
export { quoted } from './wire/quoted.js';
export { hasShape, thrownMessage } from './wire/shape.js';
