/**
 * Response docs shared by several routes.
 *
 * @module
 */

import type { Schemas } from '../../wire/schemas.js';
import type { ResponseDoc } from '../openapi.js';

export const ERROR_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  400: {
    description:
      'Invalid input: INVALID_JSON, INVALID_BODY, INVALID_NAME, MISSING_DATA, INVALID_STATUS_CODE, INVALID_DELAY, UNKNOWN_FIELD, INVALID_QUERY, DUPLICATE_KEY, INVALID_UTF8, INVALID_ENCODING, INVALID_FAULT or INVALID_TIMES.',
    schema: schemas.errorBody,
  },
  ...HOST_RESPONSES(schemas),
});

/** Every route outside `/endpoint/` checks the Host. */
export const HOST_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  403: {
    description: 'The Host is not an IP address, localhost or a name in MOCKPOINT_ALLOWED_HOSTS (HOST_NOT_ALLOWED).',
    schema: schemas.errorBody,
  },
});

/** What a route that reads or writes the store may also answer. */
export const STORE_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  503: {
    description:
      'The store cannot serve this now (STORE_UNAVAILABLE), e.g. writes after a failed write, or damaged data.',
    schema: schemas.errorBody,
  },
});

/** What an add or a replace may also answer about its body. */
export const BODY_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  413: {
    description: 'The body is larger than the limit, before or after decoding (BODY_TOO_LARGE).',
    schema: schemas.errorBody,
  },
  415: {
    description:
      'The Content-Encoding is not gzip or deflate (UNSUPPORTED_ENCODING); the Accept-Encoding header lists those accepted.',
    schema: schemas.errorBody,
  },
});

export const ADMIN_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  401: {
    description: 'MOCKPOINT_ADMIN_TOKEN is set and the bearer token is missing or wrong (UNAUTHORIZED).',
    schema: schemas.errorBody,
  },
  403: {
    description:
      'The Host is not an IP address, localhost or a name in MOCKPOINT_ALLOWED_HOSTS (HOST_NOT_ALLOWED), or the request came from a page on another origin that MOCKPOINT_ALLOWED_ORIGINS does not list (CROSS_ORIGIN).',
    schema: schemas.errorBody,
  },
});

export const NOT_FOUND_RESPONSE = (schemas: Schemas): Record<number, ResponseDoc> => ({
  404: { description: 'No endpoint with this name (NOT_FOUND).', schema: schemas.errorBody },
});
