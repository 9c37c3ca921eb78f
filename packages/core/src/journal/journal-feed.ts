/**
 * The live journal: server-sent event streams of journal entries as they are
 * recorded (`/api/endpoints/{name}/requests/stream`, `/api/requests/stream`).
 *
 * One follower on the journal fans every entry out to all open streams: each
 * entry is formatted and encoded once, whatever the number of readers. A stream
 * starts with the entries past its cursor (`Last-Event-ID` / `after`), then goes
 * live without a gap or a duplicate: live entries that arrive while the first read
 * is under way wait, and only ids past the last one sent go out.
 *
 * Bounded: a reader that falls `maxBufferedBytes` behind is dropped with a final
 * `end` event (what it missed stays in the journal, and its `Last-Event-ID` resumes
 * there); at most `maxStreams` are open at once. Built on a Fetch-API
 * `ReadableStream`, so it runs wherever the app does.
 *
 * @module
 */

import type { JournalEntry } from '../api/journal-json.js';
import { concatBytes } from '../codec/concat-bytes.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_STREAMS } from '../registry/limits.js';
import { type Journal, type JournalFollower, type NamedEntry, readJournalPaged } from './journal.js';
import { SSE_HEARTBEAT, sseEvent } from './sse-frames.js';

/** Options for {@link JournalFeed}. */
export interface JournalFeedOptions {
  /** Streams open at once; one more is refused with `TOO_MANY_STREAMS` (503). @default 1000 */
  maxStreams?: number;
  /** A comment is sent to an idle stream this often, so proxies keep it open. @default 15000 */
  heartbeatMs?: number;
  /** Bytes a reader may fall behind before it is dropped (with a final `end` event). @default 4194304 (4 MiB) */
  maxBufferedBytes?: number;
  /** How long a client waits before reconnecting (the SSE `retry` field). @default 1000 */
  retryMs?: number;
}

/** What one stream follows. */
export interface FeedStreamOptions {
  /** Only this name's requests; every name's when undefined. */
  name?: string;
  /** Only the entries it accepts (the request filter of `?match=`). */
  match?: (entry: JournalEntry) => boolean;
  /**
   * Start after this entry id (`Last-Event-ID` or `?after=`); undefined: only
   * requests recorded from now on.
   */
  after?: number;
  /** The journal `after` was read from; another one means the journal started anew (the cursor is reset to 0). */
  journalId?: string;
}

/** Why a stream ended, in its final `end` event. */
export type FeedEndReason = 'slow-reader' | 'shutdown';

const END_MESSAGES: Record<FeedEndReason, string> = {
  'slow-reader':
    'this reader fell too far behind and was dropped; reconnect with Last-Event-ID to resume from the journal',
  shutdown: 'the server is shutting down',
};

/** One open stream. */
class Watcher {
  readonly name: string | undefined;
  readonly match: ((entry: JournalEntry) => boolean) | undefined;
  /** Highest id considered (sent or filtered out): nothing at or below it goes out again. */
  lastId = 0;
  /** The journal this stream's ids belong to. */
  journalId: string | undefined;
  /** Live batches that arrived during the first read; undefined once live. */
  backlog: { batch: NamedEntry[]; journalId: string }[] | undefined = [];
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #ending = false;
  #wake: (() => void) | undefined;
  readonly #feed: JournalFeed;

  constructor(feed: JournalFeed, options: FeedStreamOptions) {
    this.#feed = feed;
    this.name = options.name;
    this.match = options.match;
  }

  get idle(): boolean {
    return this.#pending.length === 0 && !this.#ending;
  }

  /** Whether it ended (its reader left, fell behind, or the feed closed): nothing more goes out. */
  get ending(): boolean {
    return this.#ending;
  }

  /** Sends the entries of a batch past the cursor (a new journal resets the cursor, and says so). */
  deliver(batch: NamedEntry[], journalId: string): void {
    if (this.backlog !== undefined) {
      this.backlog.push({ batch, journalId });
      return;
    }
    this.send(batch, journalId);
  }

  /** Sends a batch now (a page of the first read, while live batches still wait in the backlog). */
  send(batch: NamedEntry[], journalId: string): void {
    if (journalId !== this.journalId) {
      this.journalId = journalId;
      this.lastId = 0;
      this.push(journalFrame(journalId, true, 0));
    }
    for (const named of batch) {
      const { entry } = named;
      if (entry.id <= this.lastId) continue;
      this.lastId = entry.id;
      if (this.name !== undefined && named.name !== this.name) continue;
      if (this.match !== undefined && !this.match(entry)) continue;
      this.push(this.#feed.frameOf(named));
    }
  }

  push(bytes: Uint8Array): void {
    if (this.#ending) return;
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.byteLength;
    if (this.#pendingBytes > this.#feed.maxBufferedBytes) {
      // What it has not read is dropped at once (memory stays bounded); it resumes from the journal.
      this.#pending = [];
      this.#pendingBytes = 0;
      this.end('slow-reader');
      return;
    }
    this.#wake?.();
  }

  /** Sends the final `end` event after what is pending, then closes. */
  end(reason: FeedEndReason): void {
    if (this.#ending) return;
    const frame = endFrame(reason);
    this.#pending.push(frame);
    this.#pendingBytes += frame.byteLength;
    this.#ending = true;
    this.#feed.remove(this);
    this.#wake?.();
  }

  /** The client went away: nothing more is sent. */
  cancel(): void {
    this.#ending = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#feed.remove(this);
    this.#wake?.();
  }

  /** Hands everything pending to the stream as one chunk, or waits until there is something. */
  pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> | undefined {
    if (this.#pending.length > 0) {
      const chunk =
        this.#pending.length === 1 ? (this.#pending[0] as Uint8Array) : concatBytes(this.#pending, this.#pendingBytes);
      this.#pending = [];
      this.#pendingBytes = 0;
      controller.enqueue(chunk);
      if (this.#ending) close(controller);
      return undefined;
    }
    if (this.#ending) {
      close(controller);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve(this.pull(controller));
      };
    });
  }
}

/** Closes a stream unless its reader already cancelled it. */
function close(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // cancelled by the reader: nothing to close
  }
}

/**
 * The `journal` event: which journal the ids belong to, whether it started anew
 * (the cursor was reset), and the id after which the stream sends (a client that
 * reconnects before any request arrived resumes from there).
 */
function journalFrame(journalId: string, reset: boolean, after: number, retry?: number): Uint8Array {
  return sseEvent({ retry, event: 'journal', data: JSON.stringify({ journalId, reset, after }) });
}

function endFrame(reason: FeedEndReason): Uint8Array {
  return sseEvent({ event: 'end', data: JSON.stringify({ reason, message: END_MESSAGES[reason] }) });
}

/** The live journal of one app: every open stream, fed by one follower on the journal. */
export class JournalFeed {
  readonly maxStreams: number;
  readonly heartbeatMs: number;
  readonly maxBufferedBytes: number;
  readonly retryMs: number;
  readonly #journal: Journal;
  readonly #watchers = new Set<Watcher>();
  /** Streams of every name, and streams per name: what the follower wants. */
  #everyName = 0;
  readonly #byName = new Map<string, number>();
  #unfollow: (() => void) | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** The frame of each entry, built once for every stream that sends it. */
  #frames = new WeakMap<JournalEntry, Uint8Array>();
  #ended = false;

  constructor(journal: Journal, options: JournalFeedOptions = {}) {
    this.#journal = journal;
    this.maxStreams = options.maxStreams ?? DEFAULT_MAX_STREAMS;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.retryMs = options.retryMs ?? 1000;
  }

  /** Number of open streams. */
  get size(): number {
    return this.#watchers.size;
  }

  /**
   * Opens a stream: reads the entries past the cursor first (so a failure is an
   * error answer, not a broken stream), then follows live.
   * @throws MockpointError `TOO_MANY_STREAMS` at the limit; the journal's errors (e.g. `STORE_UNAVAILABLE`).
   */
  async open(options: FeedStreamOptions, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    if (this.#watchers.size >= this.maxStreams) {
      throw new MockpointError(
        'TOO_MANY_STREAMS',
        `${this.#watchers.size} journal streams are already open (the limit, MOCKPOINT_MAX_STREAMS); close one, or read the journal without streaming`,
      );
    }
    const watcher = new Watcher(this, options);
    // Following before the first read: whatever is recorded meanwhile waits in the backlog.
    this.#add(watcher);
    try {
      await this.#start(watcher, options);
    } catch (error) {
      this.remove(watcher);
      throw error;
    }
    if (this.#ended) watcher.end('shutdown');
    const onAbort = () => watcher.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => watcher.pull(controller),
        cancel: () => {
          signal?.removeEventListener('abort', onAbort);
          watcher.cancel();
        },
      },
      { highWaterMark: 0 },
    );
  }

  async #start(watcher: Watcher, options: FeedStreamOptions): Promise<void> {
    const fromNow = options.after === undefined;
    // Only the journal id and the newest id: the entries are read below, a page at a time.
    const head = await this.#journal.since(Number.MAX_SAFE_INTEGER, options.name);
    let after = options.after ?? head.newest;
    // A cursor of another journal (named so, or past anything this one has recorded): everything here is newer.
    const stale =
      !fromNow && ((options.journalId !== undefined && options.journalId !== head.journalId) || after > head.newest);
    if (stale) after = 0;
    watcher.journalId = head.journalId;
    watcher.lastId = after;
    watcher.push(journalFrame(head.journalId, stale, after, this.retryMs));
    if (!fromNow) {
      // The backlog a page at a time, the event loop running between pages; live entries
      // recorded meanwhile wait in the watcher's backlog and go out after it, in order.
      // A stream that ended meanwhile (its reader left, or fell behind) reads no further page.
      await readJournalPaged(this.#journal, after, options.name, (since) => {
        watcher.send(since.entries, since.journalId);
        return !watcher.ending;
      });
    }
    const backlog = watcher.backlog ?? [];
    watcher.backlog = undefined;
    for (const { batch, journalId } of backlog) watcher.deliver(batch, journalId);
  }

  /** The SSE frame of an entry: its id, and the entry with its name. */
  frameOf(named: NamedEntry): Uint8Array {
    let frame = this.#frames.get(named.entry);
    if (frame === undefined) {
      frame = sseEvent({
        id: named.entry.id,
        event: 'request',
        data: JSON.stringify({ name: named.name, ...named.entry }),
      });
      this.#frames.set(named.entry, frame);
    }
    return frame;
  }

  /** Ends every stream (each gets a final `end` event) and refuses none later: they end at once. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const watcher of [...this.#watchers]) watcher.end('shutdown');
  }

  #add(watcher: Watcher): void {
    this.#watchers.add(watcher);
    if (watcher.name === undefined) this.#everyName++;
    else this.#byName.set(watcher.name, (this.#byName.get(watcher.name) ?? 0) + 1);
    if (this.#unfollow === undefined) {
      const follower: JournalFollower = {
        wants: (name) => this.#everyName > 0 || this.#byName.has(name),
        entries: (batch, journalId) => {
          for (const each of this.#watchers) each.deliver(batch, journalId);
        },
        ended: () => this.close(),
      };
      this.#unfollow = this.#journal.follow(follower);
    }
    if (this.#heartbeat === undefined && this.#watchers.size > 0) {
      this.#heartbeat = setInterval(() => {
        for (const each of this.#watchers) if (each.idle && each.backlog === undefined) each.push(SSE_HEARTBEAT);
      }, this.heartbeatMs);
      // A Node timer must not keep a process alive on its own (a test's in-process server).
      (this.#heartbeat as { unref?: () => void }).unref?.();
    }
  }

  /** Forgets a stream (it ended or its reader left). */
  remove(watcher: Watcher): void {
    if (!this.#watchers.delete(watcher)) return;
    if (watcher.name === undefined) this.#everyName--;
    else {
      const left = (this.#byName.get(watcher.name) ?? 1) - 1;
      if (left === 0) this.#byName.delete(watcher.name);
      else this.#byName.set(watcher.name, left);
    }
    if (this.#watchers.size === 0) {
      this.#unfollow?.();
      this.#unfollow = undefined;
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
      this.#frames = new WeakMap();
    }
  }
}
