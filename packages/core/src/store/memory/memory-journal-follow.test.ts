import { describe } from 'vitest';
import { RequestJournal } from '../../journal/journal.js';
import { runJournalFollowContract } from '../../journal/journal-follow.case.test.js';

describe('RequestJournal: follow and since', () => {
  runJournalFollowContract(async () => {
    const journal = new RequestJournal();
    return { writer: journal, reader: journal, settle: async () => undefined };
  });
});
