// A body over the limit is answered 413 BODY_TOO_LARGE, and the client reads it
// (#49 S10): the daemon reads and drops the rest of the upload (up to a bound)
// before it answers and closes, instead of closing on unread bytes, whose reset
// made Node's own fetch fail with EPIPE before it read the 413 (7 of 10 before).
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

it("10 PUT /api/endpoint/add of 6 MB with Node's fetch: 413 BODY_TOO_LARGE every time, nothing stored", async () => {
  const daemon = await startDaemon();
  const body = JSON.stringify({ name: 'big', data: 'x'.repeat(6_000_000) });
  const outcomes: string[] = [];
  for (let i = 0; i < 10; i++) {
    try {
      const answer = await fetch(`${daemon.url}/api/endpoint/add`, { method: 'PUT', body });
      const { error } = (await answer.json()) as { error: { code: string } };
      outcomes.push(`${answer.status} ${error.code}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      outcomes.push(`failed: ${cause?.code ?? (error as Error).message}`);
    }
  }
  expect(outcomes).toEqual(Array(10).fill('413 BODY_TOO_LARGE'));
  expect((await fetch(`${daemon.url}/api/endpoints/big`)).status).toBe(404);
  expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
}, 120_000);
