/**
 * Response docs shared by several routes.
 *
 * @module
 */
import type { ResponseDoc } from '../openapi.js';
import type { Schemas } from '../schemas.js';

export const ERROR_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  400: {
    description:
      'Invalid input: INVALID_JSON, INVALID_BODY, INVALID_NAME, MISSING_DATA, INVALID_STATUS_CODE, INVALID_DELAY, UNKNOWN_FIELD or INVALID_QUERY.',
    schema: schemas.errorBody,
  },
});

export const ADMIN_RESPONSES = (schemas: Schemas): Record<number, ResponseDoc> => ({
  401: {
    description: 'ADMIN_TOKEN is set and the bearer token is missing or wrong (UNAUTHORIZED).',
    schema: schemas.errorBody,
  },
});

export const NOT_FOUND_RESPONSE = (schemas: Schemas): Record<number, ResponseDoc> => ({
  404: { description: 'No endpoint with this name (NOT_FOUND).', schema: schemas.errorBody },
});
