/**
 * The error of a Redis operation refused before anything was sent (the store is
 * closed, Redis is stalled, or the client is not connected: it queues nothing
 * while offline): the operation did not run and never will, so
 * there is nothing to undo. Every other failure may come after the command was
 * sent, and it may still run.
 *
 * @module
 */

import { MockpointError } from '../../registry/errors.js';

/** `STORE_UNAVAILABLE`, for an operation that was never sent to Redis. */
export class NotSentError extends MockpointError {
  constructor(message: string, cause?: unknown) {
    super('STORE_UNAVAILABLE', message, { cause });
  }
}
