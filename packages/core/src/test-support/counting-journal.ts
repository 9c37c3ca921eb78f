/**
 * A memory journal that notes how many entries each `since()` read returned,
 * for tests that check the journal is read a page at a time.
 */
import type { JournalSince } from '../journal/journal.js';
import { RequestJournal, type RequestJournalOptions } from '../store/memory/memory-journal.js';

export function countingJournal(options: RequestJournalOptions): { journal: RequestJournal; pages: number[] } {
  const pages: number[] = [];
  class CountingJournal extends RequestJournal {
    override async since(after: number, name?: string, limit?: number): Promise<JournalSince> {
      const since = await super.since(after, name, limit);
      pages.push(since.entries.length);
      return since;
    }
  }
  return { journal: new CountingJournal(options), pages };
}
