// The client's waits across a restarted daemon: the daemon that answers after the restart has a new
// journal (another journalId, ids from 1 again), and ends a wait held with a cursor from the old one as
// soon as it records a request, not when the long-poll runs out (60 s, past this test's 30 s).
import { createClient, type JournalEntry } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import { type Daemon, longPollsHeld, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

/** Two daemons and a client that talks to the first until `restart()` stops it, then to the second. */
async function restartable() {
  const before = await startDaemon({ args: ['--memory'] });
  const after = await startDaemon({ args: ['--memory'] });
  let current: Daemon = before;
  const client = createClient({
    baseUrl: 'http://mockpoint.test',
    fetch: (request) => fetch(new Request(request.url.replace('http://mockpoint.test', current.url), request)),
  });
  for (let i = 0; i < 5; i++) {
    await fetch(`${before.url}/endpoint/hook`, { method: 'POST', body: `old ${i}` });
  }
  const restart = async () => {
    current = after;
    // The old daemon answers its held long-polls as it shuts down; the client asks the new one next.
    await before.stop('SIGTERM');
    await longPollsHeld([after.url], 1);
  };
  const send = (body: string) => fetch(`${after.url}/endpoint/hook`, { method: 'POST', body });
  return { before, client, restart, send };
}

const bodies = (entries: JournalEntry[]) => entries.map((entry) => [entry.id, entry.body]);

describe('a client waiting while the daemon restarts', () => {
  it('waitForRequests with a cursor from the old journal ends at the first request of the new one', async () => {
    const { before, client, restart, send } = await restartable();
    const waiting = client.waitForRequests('hook', { after: 5, timeout: 120_000 });
    await longPollsHeld([before.url], 1);
    await restart();
    await send('new');
    expect(bodies(await waiting)).toEqual([[1, 'new']]);
  });

  it('expectNoRequests fails at the first request of the new journal, though its id is below the cursor', async () => {
    const { before, client, restart, send } = await restartable();
    const quiet = client.expectNoRequests('hook', { within: 120_000 }).then(
      () => 'quiet',
      (error: unknown) => error,
    );
    await longPollsHeld([before.url], 1);
    await restart();
    await send('sent again');
    expect(await quiet).toMatchObject({ code: 'UNEXPECTED_REQUEST' });
  });

  it('the journal read answers a cursor from another journal from the start, without waiting', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    await fetch(`${daemon.url}/endpoint/hook`, { method: 'POST', body: 'first' });
    const read = async (query: string) =>
      (await (await fetch(`${daemon.url}/api/endpoints/hook/requests?${query}`)).json()) as {
        requests: JournalEntry[];
        complete: boolean;
        journalId: string;
      };
    const { journalId } = await read('');
    // The same journal: the cursor holds, nothing is newer (no wait asked, so the answer comes at once).
    expect(await read(`after=5&journal=${journalId}`)).toMatchObject({ requests: [], complete: false });
    // Another journal's cursor: read from the start, and a long-poll ends at once since 1 request exists.
    const other = await read('after=5&journal=an-old-journal&wait=60000');
    expect({ ...other, requests: bodies(other.requests) }).toEqual({
      requests: [[1, 'first']],
      complete: true,
      journalId,
    });
  });
});
