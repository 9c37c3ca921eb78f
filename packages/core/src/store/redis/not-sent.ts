/**
 * The error of a Redis operation the store refused before sending anything (it
 * is closed, or Redis is stalled): the operation did not run and never will, so
 * there is nothing to undo. Every other failure may come after the command was
 * sent, and it may still run.
 *
 * @module
 */

import { MockpointError } from '../../wire/errors.js';

/** `STORE_UNAVAILABLE`, for an operation that was never sent to Redis. */
export class NotSentError extends MockpointError {
  constructor(message: string) {
    super('STORE_UNAVAILABLE', message);
  }
}
