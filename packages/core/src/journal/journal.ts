/**
 * The request journal's interface: every request to `/endpoint/{name}` is kept,
 * and long-poll waiters are woken on arrival. Each backend has its own
 * (`store/memory/memory-journal.ts`, `store/redis/journal.ts`).
 *
 * @module
 */
import type { JournalEntry, JournalPage } from '../api/journal-json.js';
import type { AnswerMark, RecordedRequest } from './journal-entry.js';

/** A recorded request with the name it was sent to, as the live stream carries it. */
export interface NamedEntry {
  name: string;
  entry: JournalEntry;
}

/** What {@link Journal.since} answers. */
export interface JournalSince {
  /** The journal the entries come from (see {@link Journal.id}). */
  journalId: string;
  /** The newest id recorded so far (by any name): a cursor newer than this belongs to another journal. */
  newest: number;
  /** The entries with a greater id than asked for, oldest first. */
  entries: NamedEntry[];
}

/**
 * Who follows a journal live (the journal stream's fan-out): told of every entry
 * recorded from the moment it follows, in id order, once.
 */
export interface JournalFollower {
  /** Whether entries for `name` are wanted; the others are neither formatted nor fetched. */
  wants(name: string): boolean;
  /** New entries, oldest first; `journalId` names the journal they belong to. */
  entries(batch: NamedEntry[], journalId: string): void;
  /** The journal is shutting down ({@link Journal.releaseWaiters}): nothing more will come. */
  ended(): void;
}

const NO_FOLLOWERS: ReadonlySet<JournalFollower> = new Set();

/**
 * The followers of one journal, kept the same way by every implementation: a
 * follower that arrives after {@link Followers.end} is ended at once.
 */
export class Followers implements Iterable<JournalFollower> {
  /** Made by the first follower: a namespace's journal (one per test session) seldom has one. */
  #set: Set<JournalFollower> | undefined;
  #ended = false;

  get size(): number {
    return this.#set?.size ?? 0;
  }

  [Symbol.iterator](): Iterator<JournalFollower> {
    return (this.#set ?? NO_FOLLOWERS)[Symbol.iterator]();
  }

  /** Adds `follower`; returns the function that removes it. */
  add(follower: JournalFollower): () => void {
    if (this.#ended) {
      follower.ended();
      return () => undefined;
    }
    const set = this.#set ?? new Set();
    this.#set = set;
    set.add(follower);
    return () => {
      set.delete(follower);
    };
  }

  /** Tells every follower that nothing more will come, now and on arrival. */
  end(): void {
    this.#ended = true;
    const followers = [...(this.#set ?? [])];
    this.#set?.clear();
    for (const follower of followers) follower.ended();
  }

  /** Undoes {@link end}: followers that arrive from now on are kept. */
  reopen(): void {
    this.#ended = false;
  }
}

/**
 * What the read path and the journal API need from a journal; the in-memory
 * {@link RequestJournal} is one, a shared (e.g. Redis-backed) journal can be another.
 */
export interface Journal {
  /**
   * Names the journal, in every journal answer (`journalId`): it changes whenever
   * the journal starts anew (ids start again at 1), and is the same for every
   * reader of one journal (e.g. replicas sharing one).
   */
  readonly id: string;
  /**
   * Records a request answered with `statusCode`, and who answered it (`mark`);
   * the journal owns `request` from then on.
   */
  record(name: string, request: RecordedRequest, statusCode: number, mark?: AnswerMark): void;
  /**
   * The entries for `name` with an id greater than `after` (and accepted by `match`),
   * oldest first; waits up to `timeoutMs` (0: not at all) until there are at least
   * `count`, or `signal` aborts.
   */
  wait(
    name: string,
    count: number,
    timeoutMs: number,
    signal?: AbortSignal,
    after?: number,
    match?: (entry: JournalEntry) => boolean,
  ): Promise<JournalPage>;
  /** Forgets the entries of `name` (a shared journal resolves once it has). */
  clear(name: string): void | Promise<void>;
  /** Forgets the entries of every name (when every endpoint is deleted). */
  clearAll(): void | Promise<void>;
  /** Number of long-poll waiters held by this process. */
  readonly waiterCount: number;
  /** Number of long-poll waiters held by this process for `name`. */
  waitersFor(name: string): number;
  /** Answers every pending wait now, and every later one at once (for shutting down); followers are told they ended. */
  releaseWaiters(): void;
  /**
   * Undoes {@link releaseWaiters}: later waits and followers are held again (a
   * namespace's app made again after an idle unload waits as one never unloaded).
   */
  reopen(): void;
  /**
   * Hands every entry recorded from now on to `follower` (of the names it wants),
   * in id order, each once, on whichever replica it was recorded. Returns the
   * function that stops it.
   */
  follow(follower: JournalFollower): () => void;
  /**
   * The entries with an id greater than `after` (of `name`, or of every name when
   * it is undefined), oldest first, with the journal id and the newest id so far;
   * at most `limit` of them (the oldest past `after`: read on from the last one's
   * id), so that a reader of the whole journal formats it a page at a time.
   */
  since(after: number, name?: string, limit?: number): Promise<JournalSince>;
  /**
   * How many requests the journal holds for each of `names` (at most its size
   * per name), in the same order; reading them marks no name as used.
   */
  counts(names: readonly string[]): Promise<number[]>;
}

/** Entries formatted per page when the whole journal is read (the inbox, a stream's backlog). */
export const JOURNAL_READ_PAGE = 250;

/**
 * Reads every entry past `after` a page ({@link JOURNAL_READ_PAGE}) at a time,
 * handing each page to `page` and letting the event loop run between pages, so
 * that reading a big journal never holds up the requests being served. `page`
 * answers whether to read on: `false` (its reader is gone) stops the read there.
 */
export async function readJournalPaged(
  journal: Journal,
  after: number,
  name: string | undefined,
  page: (since: JournalSince) => boolean,
): Promise<void> {
  let cursor = after;
  for (;;) {
    const since = await journal.since(cursor, name, JOURNAL_READ_PAGE);
    if (!page(since)) return;
    const last = since.entries.at(-1);
    if (since.entries.length < JOURNAL_READ_PAGE || last === undefined) return;
    cursor = last.entry.id;
    // A macrotask turn: requests that came in meanwhile are answered before the next page.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
