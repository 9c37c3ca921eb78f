/**
 * The journal methods of the client: read, wait for and rule out recorded requests.
 *
 * @module
 */

import type { JournalEntry, RequestFilter } from '../api/journal-json.js';
import { MockpointError } from '../registry/errors.js';
import type { JournalAnswer, QuietOptions, WaitOptions } from './client.js';
import { DEFAULT_WAIT_MS, MAX_POLL_MS, seg, type Transport } from './transport.js';

/**
 * An `after` cursor across several reads of one journal. When the journal
 * starts anew between reads (another `journalId`: the daemon restarted, ids
 * begin again at 1), the cursor goes back to 0 (everything in the new journal
 * is newer than what was seen) and the read that used the old one is stale.
 */
function journalCursor(after: number, first?: JournalAnswer) {
  let journalId = first?.journalId;
  return {
    after,
    /** The journal `after` was read from, once a read said (sent with the next read). */
    get journalId(): string | undefined {
      return journalId;
    },
    /** Whether `page` was read with a cursor from another journal (then read again). */
    stale(page: JournalAnswer): boolean {
      const changed = journalId !== undefined && page.journalId !== journalId;
      journalId = page.journalId;
      if (changed && this.after !== 0) {
        this.after = 0;
        return true;
      }
      return false;
    },
  };
}

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function journalMethods({ call, json }: Transport) {
  /** One journal read; a long-poll when `wait` is given. */
  function journalPage(
    name: string,
    query: { count?: number; after?: number; journal?: string; wait?: number; match?: RequestFilter },
    signal?: AbortSignal,
  ): Promise<JournalAnswer> {
    const params = new URLSearchParams();
    if (query.count !== undefined) params.set('count', String(query.count));
    if (query.after) params.set('after', String(query.after));
    // The journal the cursor is from: a restarted daemon's journal then reads from its start at once.
    if (query.after && query.journal !== undefined) params.set('journal', query.journal);
    if (query.wait !== undefined) params.set('wait', String(query.wait));
    if (query.match !== undefined) params.set('match', JSON.stringify(query.match));
    const qs = params.size ? `?${params}` : '';
    return json<JournalAnswer>('GET', `/api/endpoints/${seg(name)}/requests${qs}`, undefined, signal);
  }

  const describeSeen = (requests: JournalEntry[]) => requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'none';

  return {
    /**
     * Requests received at an endpoint (known or not), oldest first; only ids
     * greater than `after`, and only those matching `match`, when given.
     */
    async requests(name: string, options: { after?: number; match?: RequestFilter } = {}): Promise<JournalEntry[]> {
      return (await journalPage(name, options)).requests;
    },

    /**
     * One read of a name's journal, with the `journalId` (compare it between reads:
     * a new one means ids started again). With `wait`, the server holds the answer
     * up to that many ms until `count` requests newer than `after` exist.
     */
    journal(
      name: string,
      read: { after?: number; wait?: number; count?: number; signal?: AbortSignal } = {},
    ): Promise<JournalAnswer> {
      const query = new URLSearchParams();
      if (read.wait) query.set('wait', String(read.wait));
      if (read.count !== undefined) query.set('count', String(read.count));
      if (read.after) query.set('after', String(read.after));
      const qs = query.size ? `?${query}` : '';
      return json('GET', `/api/endpoints/${seg(name)}/requests${qs}`, undefined, read.signal);
    },

    /** Forgets the requests recorded for a name. */
    async clearRequests(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/requests`);
    },

    /**
     * Waits until at least `count` requests have arrived at `name` (server-side
     * long-poll: no polling loop), and returns them. Throws `WAIT_TIMEOUT`, saying
     * what did arrive, when they do not arrive in time.
     */
    async waitForRequests(name: string, wait: WaitOptions = {}): Promise<JournalEntry[]> {
      const count = wait.count ?? 1;
      const timeout = wait.timeout ?? DEFAULT_WAIT_MS;
      const deadline = Date.now() + timeout;
      const cursor = journalCursor(wait.after ?? 0);
      for (;;) {
        wait.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const page = await journalPage(
          name,
          {
            count,
            after: cursor.after,
            journal: cursor.journalId,
            wait: Math.min(remaining, MAX_POLL_MS),
            match: wait.match,
          },
          wait.signal,
        );
        if (cursor.stale(page)) continue;
        if (page.complete) return page.requests;
        wait.signal?.throwIfAborted();
        if (Date.now() >= deadline) {
          const which = wait.match === undefined ? '' : ` matching ${JSON.stringify(wait.match)}`;
          throw new MockpointError(
            'WAIT_TIMEOUT',
            `expected ${count} request(s)${which} to "${name}" within ${timeout} ms, received ${page.requests.length} (${describeSeen(page.requests)})`,
          );
        }
      }
    },

    /**
     * Proves that no request (matching `match`, when given) arrives at `name` for
     * `within` ms: resolves after the quiet period, and throws
     * `UNEXPECTED_REQUEST`, naming the request, as soon as one arrives.
     * @example await client.expectNoRequests('hook', { within: 500 }) // not sent again
     */
    async expectNoRequests(name: string, quiet: QuietOptions): Promise<void> {
      if (!Number.isFinite(quiet.within) || quiet.within < 0) {
        throw new TypeError(`expectNoRequests() needs within >= 0 milliseconds, received ${String(quiet.within)}`);
      }
      const started = Date.now();
      const deadline = started + quiet.within;
      let first: JournalAnswer | undefined;
      if (quiet.after === undefined) first = await journalPage(name, {}, quiet.signal);
      const cursor = journalCursor(quiet.after ?? first?.requests.at(-1)?.id ?? 0, first);
      for (;;) {
        quiet.signal?.throwIfAborted();
        const remaining = Math.max(0, deadline - Date.now());
        const page = await journalPage(
          name,
          {
            count: 1,
            after: cursor.after,
            journal: cursor.journalId,
            wait: Math.min(remaining, MAX_POLL_MS),
            match: quiet.match,
          },
          quiet.signal,
        );
        if (cursor.stale(page)) continue;
        if (page.requests.length > 0) {
          const which = quiet.match === undefined ? '' : ` matching ${JSON.stringify(quiet.match)}`;
          throw new MockpointError(
            'UNEXPECTED_REQUEST',
            `expected no request${which} to "${name}" within ${quiet.within} ms, but received ${describeSeen(page.requests)} after ${Date.now() - started} ms`,
          );
        }
        quiet.signal?.throwIfAborted();
        if (Date.now() >= deadline) return;
      }
    },
  };
}
