/**
 * Answering what an app holds, at once: long-polls with what they have,
 * requests held by a queued `hang` with the answer of this moment, streamed
 * answers ended. Used when the server closes (adapter/lifecycle.ts) and when a
 * namespace is deleted (namespace-table.ts).
 *
 * @module
 */
import type { MockpointApp } from './create-app.js';

/** Answers every request `app` holds (not its namespaces'), now. */
export function releaseAppHeld(app: MockpointApp): void {
  app.mockpoint.journal.releaseWaiters();
  app.mockpoint.endpoints.queue.releaseHangs();
  app.mockpoint.streams.endAll();
}
