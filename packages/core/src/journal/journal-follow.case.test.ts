/**
 * The contract of a journal's live side (`follow` and `since`), run for every
 * implementation: the memory journal, and the Redis journal across replicas.
 */
import { expect, it } from 'vitest';
import type { Journal, JournalFollower, NamedEntry } from './journal.js';
import type { RecordedRequest } from './journal-entry.js';

/** A writer and a reader of one journal (two replicas, or the same journal twice), and how to wait for writes. */
export interface FollowSubject {
  writer: Journal;
  reader: Journal;
  /** Resolves once everything the writer recorded can be read. */
  settle(): Promise<void>;
}

export function request(body: string, name = 'hook'): RecordedRequest {
  return {
    method: 'POST',
    target: `/endpoint/${name}`,
    rawHeaders: ['Content-Type', 'text/plain'],
    body: new TextEncoder().encode(body),
    bodyTruncated: false,
  };
}

/** A follower that collects what it is handed, with a way to wait for a count. */
export function collector(wants: (name: string) => boolean = () => true) {
  const seen: NamedEntry[] = [];
  const journalIds: string[] = [];
  let ended = 0;
  let notify: (() => void) | undefined;
  const follower: JournalFollower = {
    wants,
    entries(batch, journalId) {
      seen.push(...batch);
      journalIds.push(journalId);
      notify?.();
    },
    ended() {
      ended++;
      notify?.();
    },
  };
  return {
    follower,
    seen,
    journalIds,
    get ended() {
      return ended;
    },
    /** Resolves once `count` entries were handed over. */
    async until(count: number): Promise<void> {
      while (seen.length < count) await new Promise<void>((resolve) => (notify = resolve));
    },
  };
}

export function runJournalFollowContract(make: () => Promise<FollowSubject>): void {
  it('hands every entry recorded after follow() to the follower, in id order, each once, only of the names it wants', async () => {
    const { writer, reader } = await make();
    const follow = collector((name) => name !== 'skip');
    const stop = reader.follow(follow.follower);
    writer.record('hook', request('1'), 200);
    writer.record('skip', request('x', 'skip'), 404);
    writer.record('other', request('2', 'other'), 201);
    writer.record('hook', request('3'), 200);
    await follow.until(3);
    expect(follow.seen.map((e) => [e.name, e.entry.body, e.entry.statusCode])).toEqual([
      ['hook', '1', 200],
      ['other', '2', 201],
      ['hook', '3', 200],
    ]);
    const ids = follow.seen.map((e) => e.entry.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(follow.journalIds)).toEqual(new Set([reader.id]));
    stop();
    writer.record('hook', request('4'), 200);
    // A follower from now on sees what comes next (on a replica, '4' may still be on its
    // way, so it may see that too) and nothing older; the first one, stopped, sees neither.
    const later = collector();
    const stopLater = reader.follow(later.follower);
    writer.record('hook', request('5'), 200);
    await later.until(1);
    while (later.seen.at(-1)?.entry.body !== '5') await later.until(later.seen.length + 1);
    expect(['5', '4,5']).toContain(later.seen.map((e) => e.entry.body).join());
    expect(follow.seen).toHaveLength(3);
    stopLater();
  });

  it('since() lists the entries past a cursor, of one name or of every name in id order, with the newest id', async () => {
    const { writer, reader, settle } = await make();
    writer.record('a', request('1', 'a'), 200);
    writer.record('b', request('2', 'b'), 200);
    writer.record('a', request('3', 'a'), 200);
    await settle();
    const all = await reader.since(0);
    expect(all.entries.map((e) => [e.name, e.entry.body])).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['a', '3'],
    ]);
    const [first, second, third] = all.entries.map((e) => e.entry.id) as [number, number, number];
    expect(all.newest).toBe(third);
    expect(all.journalId).toBe(reader.id);
    expect((await reader.since(first)).entries.map((e) => e.entry.body)).toEqual(['2', '3']);
    expect((await reader.since(first, 'a')).entries.map((e) => e.entry.body)).toEqual(['3']);
    expect((await reader.since(second, 'b')).entries).toEqual([]);
    const none = await reader.since(Number.MAX_SAFE_INTEGER);
    expect(none).toMatchObject({ entries: [], newest: third });
  });

  it('tells followers they ended when the journal releases its waiters (shutdown), and ends later followers at once', async () => {
    const { reader } = await make();
    const follow = collector();
    reader.follow(follow.follower);
    reader.releaseWaiters();
    expect(follow.ended).toBe(1);
    const late = collector();
    reader.follow(late.follower);
    expect(late.ended).toBe(1);
  });
}
