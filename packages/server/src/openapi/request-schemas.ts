/**
 * An operation's request as JSON Schemas for a route's `validate`: the code is
 * core's (openapi/openapi-request.ts), shared with `mockpoint verify --journal`.
 *
 * @module
 */
export { paramName, requestValidation, toJsonSchema } from '@mockpoint/core/internal';
