// Seeded fuzz of the places a host arrives (the Host header and an absolute-form
// target, read by routeByHost and the host table) with random code points, sent
// as raw bytes to the built daemon on 127.0.0.1 with hosts mapped: every request
// is answered with an HTTP status (or refused by Node's parser), a request whose
// host is a mapped name reaches the endpoint, and /api/health answers after.
// Then random `move=` values of PUT …/hosts (percent-encoded code points, and
// bytes that are no UTF-8): each refused 400 INVALID_QUERY in one bounded line.
import { connect } from 'node:net';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { ON_BUN, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const SEED = 35;
const CASES = 300;

/** Sends `head` as UTF-8 bytes on a fresh connection and resolves with what came back before the close. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(text) : reject(error)));
    socket.on('close', () => resolve(text));
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(head).slice(0, 200)}`)));
    socket.end(Buffer.from(head, 'utf8'));
  });
}

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Bun's parser answers a target holding a tab with 505.
it.skipIf(ON_BUN)(`answers ${CASES} random hosts and targets (seed ${SEED}), and stays healthy`, async () => {
  const daemon = await startDaemon({ args: ['--memory', '--hosts', 'api.github.com=github,*.stripe.com=stripe'] });
  const health = await watchWhileFuzzing(daemon);
  await requestJson(`${daemon.url}/api/endpoints/github`, { method: 'PUT', body: { data: 'gh' } });
  await requestJson(`${daemon.url}/api/endpoints/stripe`, { method: 'PUT', body: { data: 'st' } });
  const random = prng(SEED);
  const statuses = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const noise = randomText(random, 1 + Math.floor(random() * 40));
    // Around a mapped name half the time, so the lookup sees near misses too.
    const host = random() < 0.5 ? noise : random() < 0.5 ? `${noise}.stripe.com` : `api.github.com${noise}`;
    const head =
      i % 2 === 0
        ? `GET /x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
        : `GET http://${host}/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
    const answer = await rawRequest(daemon.port, head);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 'closed';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    expect(status === 'closed' || Number(status) < 500, `${JSON.stringify(head)} → ${answer.slice(0, 300)}`).toBe(true);
  }
  // Both the refusals and the mapped answers were reached.
  expect(statuses.get('403')).toBeGreaterThan(0);
  expect(statuses.get('404')).toBeGreaterThan(0);
  for (const head of [
    'GET /repos HTTP/1.1\r\nHost: a.b.stripe.com:1\r\nConnection: close\r\n\r\n',
    'GET http://API.github.com./ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ]) {
    expect(await rawRequest(daemon.port, head)).toMatch(/^HTTP\/1\.1 (200|404) /);
  }
  expect(
    await rawRequest(daemon.port, 'GET http://API.github.com./ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
  ).toMatch(/"gh"$/);
  await health.check();
});

const MOVE_SEED = 37;
const MOVE_CASES = 200;

/** `text` as UTF-8 bytes, every byte percent-encoded (a lone surrogate is sent as U+FFFD). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

it(`answers ${MOVE_CASES} random move= values of PUT …/hosts (seed ${MOVE_SEED}): 400 INVALID_QUERY in one bounded line, and stays healthy`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  const random = prng(MOVE_SEED);
  const codes = new Map<number, number>();
  for (let i = 0; i < MOVE_CASES; i++) {
    const noise = randomText(random, 1 + Math.floor(random() * 300));
    // Near the two values it takes a quarter of the time; a few as bytes that are no UTF-8 at all.
    const value =
      i % 4 === 0
        ? `${random() < 0.5 ? 'true' : 'false'}${noise}`
        : i % 4 === 1
          ? percentEncoded(noise)
              .split('%')
              .map((part) => (part === '' ? '' : `%${(Number.parseInt(part, 16) | 0x80).toString(16)}`))
              .join('')
          : percentEncoded(noise);
    const query = i % 4 === 0 ? percentEncoded(value) : value;
    const answer = await requestJson(`${daemon.url}/api/endpoints/fuzz/hosts?move=${query}`, {
      method: 'PUT',
      body: { hosts: ['fuzz.test'] },
    });
    codes.set(answer.status, (codes.get(answer.status) ?? 0) + 1);
    const label = `move=${query.slice(0, 200)} → ${JSON.stringify(answer.body).slice(0, 300)}`;
    expect(answer.status, label).toBe(400);
    const error = (answer.body as { error: { code: string; message: string } }).error;
    expect(error.code, label).toBe('INVALID_QUERY');
    expect(error.message, label).toMatch(/^move must be true or false \(got "/);
    expect(error.message.length, label).toBeLessThanOrEqual(700);
    expect(error.message, label).toMatch(/^[\x20-\x7e]+$/);
  }
  expect(codes.get(400)).toBe(MOVE_CASES);
  // Exactly true or false (percent-encoded or not): answered.
  for (const value of ['true', 'false', percentEncoded('true'), percentEncoded('false')]) {
    const answer = await requestJson(`${daemon.url}/api/endpoints/fuzz/hosts?move=${value}`, {
      method: 'PUT',
      body: { hosts: ['fuzz.test'] },
    });
    expect(answer.status, value).toBe(200);
  }
  await health.check();
});
