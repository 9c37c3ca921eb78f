/**
 * `watchRequests()`: the journal stream as an async iterator of requests, that
 * reconnects by itself and resumes where it was (`Last-Event-ID`), also across a
 * daemon restart (a journal that started anew is read from its beginning).
 *
 * @module
 */
import type { JournalEvent, LiveRequest, RequestFilter } from '../api/journal-json.js';
import { readSse } from './sse-reader.js';

/** Options for {@link MockpointClient.watchRequests}. */
export interface WatchRequestsOptions {
  /**
   * Only requests matching this filter (applied by the server).
   * @default undefined (every request)
   * @example { method: 'POST', body: { type: 'order.paid' } }
   */
  match?: RequestFilter;
  /** Ends the iteration (quietly) when aborted. */
  signal?: AbortSignal;
  /**
   * Start after this request id; 0 replays everything the journal keeps.
   * @default undefined (only requests from now on)
   */
  after?: number;
  /** The journal `after` was read from (a `journalId`); when it has started anew since, it is read from its start. */
  journalId?: string;
  /** Told of each `journal` event: at every (re)connection, and when the journal started anew. */
  onJournal?: (event: JournalEvent) => void;
  /** Told when the stream broke or could not be opened; it is retried after `retryMs`. */
  onDisconnect?: (error: unknown, retryMs: number) => void;
}

/** What the client gives the watcher: how to send, and where. */
export interface WatchContext {
  send(request: Request): Promise<Response>;
  url(path: string): string;
  token: string | undefined;
  /** Turns an error answer into the client's error (so a bad filter throws like any call). */
  toError(response: Response, method: string, target: string): Promise<Error>;
}

/** Longest pause between reconnection attempts. */
const MAX_RETRY_MS = 2000;

/** Statuses worth retrying: the server is busy, starting or going away. */
function retriable(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The requests to `name` (every name when undefined) as they arrive.
 * @example
 * for await (const request of client.watchRequests('hook', { signal })) console.log(request.method, request.path)
 */
export async function* watchRequests(
  context: WatchContext,
  name: string | undefined,
  options: WatchRequestsOptions = {},
): AsyncGenerator<LiveRequest, void, undefined> {
  const path =
    name === undefined ? '/api/requests/stream' : `/api/endpoints/${encodeURIComponent(name)}/requests/stream`;
  const outer = options.signal;
  let after = options.after;
  let journalId = options.journalId;
  let failures = 0;
  while (!outer?.aborted) {
    // One controller per connection: leaving the loop (break, return, abort) closes it.
    const connection = new AbortController();
    // Held until the connection is done: Node's fetch follows the abort signal through
    // the Request, and a Request nobody refers to any more can be collected with it,
    // leaving a read that an abort never ends.
    let request: Request | undefined;
    const onAbort = () => connection.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      const query = new URLSearchParams();
      if (options.match !== undefined) query.set('match', JSON.stringify(options.match));
      if (journalId !== undefined) query.set('journal', journalId);
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (after !== undefined) headers['last-event-id'] = String(after);
      if (context.token) headers.authorization = `Bearer ${context.token}`;
      const target = context.url(`${path}${query.size ? `?${query}` : ''}`);
      let error: unknown;
      let refused: Error | undefined;
      try {
        request = new Request(target, { headers, signal: connection.signal });
        const response = await context.send(request);
        if (!response.ok) {
          const failure = await context.toError(response, 'GET', target);
          if (retriable(response.status)) error = failure;
          else refused = failure; // the server said no (e.g. a bad filter): retrying would not help
        } else if (response.body !== null) {
          for await (const message of readSse(response.body)) {
            if (message.event === 'request') {
              const entry = JSON.parse(message.data) as LiveRequest;
              after = entry.id;
              failures = 0;
              yield entry;
            } else if (message.event === 'journal') {
              const event = JSON.parse(message.data) as JournalEvent;
              // Before any request arrived, the stream's own cursor is where a reconnection resumes.
              if (event.reset || after === undefined) after = event.after;
              journalId = event.journalId;
              failures = 0;
              options.onJournal?.(event);
            } else if (message.event === 'end') {
              error = new Error(
                `the server ended the stream: ${(JSON.parse(message.data) as { message: string }).message}`,
              );
            }
          }
          error ??= new Error('the stream closed');
        }
      } catch (thrown) {
        if (outer?.aborted) return;
        error = thrown;
      }
      if (refused !== undefined) throw refused;
      if (outer?.aborted) return;
      failures++;
      const retryMs = Math.min(MAX_RETRY_MS, 100 * 2 ** Math.min(failures, 5));
      options.onDisconnect?.(error, retryMs);
      await pause(retryMs, outer);
    } finally {
      outer?.removeEventListener('abort', onAbort);
      connection.abort();
      // Read here, so that it is held until now.
      if (request !== undefined) request = undefined;
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
