import { describe } from 'vitest';
import { runJournalFollowContract } from '../../journal/journal-follow.case.test.js';
import { RequestJournal } from './memory-journal.js';

describe('RequestJournal: follow and since', () => {
  runJournalFollowContract(async () => {
    const journal = new RequestJournal();
    return { writer: journal, reader: journal, settle: async () => undefined };
  });
});
