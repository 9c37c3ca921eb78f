/**
 * GitHub's `404 Not Found`, as its flows answer what a path names that the twin does not hold (a
 * repository, an issue, a secret, an environment …), and its `409` of a repository with no commit:
 * each refusal in one place.
 *
 * @module
 */
import type { FlowError } from '@mockpoint/core/internal';

/** GitHub's `404 Not Found` (its `documentation_url` added where the twin answers errors). */
export const NOT_FOUND: FlowError = { status: 404, type: 'invalid_request_error', message: 'Not Found' };

/** GitHub's `409` of a Git read or write in a repository with no commit yet. */
export const EMPTY_REPOSITORY: FlowError = {
  status: 409,
  type: 'invalid_request_error',
  message: 'Git Repository is empty.',
};
