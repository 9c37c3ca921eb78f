// The built daemon never dies of a header value: a LevelDB data directory that
// already holds a route with a value HTTP cannot carry (written through the
// store, as an earlier version could have kept it) starts and answers 500
// ANSWER_NOT_SENDABLE to that request alone; and a seeded fuzz of header values
// made of random code points (literal and templated, in routes and queued
// answers) leaves the process alive, every answer either the exact stored bytes
// or a refusal with a code. Every daemon listens on 127.0.0.1 port 0.
import { join } from 'node:path';
import type { Route } from '@mockpoint/core';
import { LevelStore } from '@mockpoint/core/level';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { closeExchanges, dechunk, exchange } from '@mockpoint/testkit/raw-http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  ON_BUN,
  removeTempDirs,
  startDaemon,
} from './helpers/daemon.js';

beforeAll(() => assertBuilt());
afterEach(async () => {
  closeExchanges();
  await killAll();
});
afterAll(() => removeTempDirs());

async function send(url: string, method: string, text?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method, body: text });
  const body = await response.text();
  return { status: response.status, body: body === '' ? undefined : JSON.parse(body) };
}

/** The daemon answers its health check and its process has not exited. */
async function expectAlive(daemon: Daemon): Promise<void> {
  expect(daemon.child.exitCode, daemon.stderr).toBeNull();
  const health = await fetch(`${daemon.url}/api/health`);
  expect(health.status).toBe(200);
}

/** A raw GET: status and header lines exactly as the bytes came (latin1: one character per byte). */
async function rawGet(daemon: Daemon, path: string): Promise<{ status: number; lines: string[]; body: string }> {
  const ex = exchange(daemon.port, path, { connection: 'close' });
  await ex.complete();
  const { head, body } = dechunk(ex.text());
  const [statusLine = '', ...lines] = head.split('\r\n');
  return { status: Number(statusLine.split(' ')[1]), lines, body };
}

describe('a route kept before header values were checked (LevelDB)', () => {
  it('does not kill the daemon at start or at request time, before or after a restart', async () => {
    const cwd = await makeTempDir();
    const store = await LevelStore.open({ dir: join(cwd, 'data') });
    const kept: Route[] = [
      { id: 'euro', match: { path: '/e' }, answer: { headers: { 'x-e': '€uro' }, data: { a: 1 } } },
      { id: 'ctl', match: { path: '/c' }, answer: { headers: { 'x-c': 'a\u0001b' }, body: 'c' } },
      { id: 'fine', match: { path: '/f' }, answer: { headers: { 'x-f': 'ok' }, body: 'fine' } },
    ];
    await store.updateRoutes('old', () => kept);
    await store.close();

    for (let start = 0; start < 2; start++) {
      const daemon = await startDaemon({ cwd });
      for (const path of ['/e', '/c', '/e', '/c']) {
        const answer = await send(`${daemon.url}/endpoint/old${path}`, 'GET');
        expect(answer, path).toMatchObject({ status: 500, body: { error: { code: 'ANSWER_NOT_SENDABLE' } } });
        await expectAlive(daemon);
      }
      const fine = await fetch(`${daemon.url}/endpoint/old/f`);
      expect([fine.status, fine.headers.get('x-f'), await fine.text()]).toEqual([200, 'ok', 'fine']);
      // Saving it again with a sendable value repairs it.
      const put = await send(
        `${daemon.url}/api/endpoints/old/routes`,
        'PUT',
        '{"routes":[{"id":"euro","match":{"path":"/e"},"answer":{"headers":{"x-e":"%E2%82%ACuro"},"data":{"a":1}}}]}',
      );
      expect(put.status).toBe(200);
      expect((await fetch(`${daemon.url}/endpoint/old/e`)).headers.get('x-e')).toBe('%E2%82%ACuro');
      expect(await daemon.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      // The second start gets the bad routes back.
      const again = await LevelStore.open({ dir: join(cwd, 'data') });
      await again.updateRoutes('old', () => kept);
      await again.close();
    }
  });
});

const VALID_VALUE = /^[\t\x20-\x7e]*$/;

/** The test's own reading of the documented render rule: past visible ASCII, UTF-8 percent-encoded. */
function rendered(text: string): string {
  let out = '';
  for (const c of text) {
    out += /^[\t\x20-\x7e]$/.test(c)
      ? c
      : [...Buffer.from(c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c, 'utf8')]
          .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
          .join('');
  }
  return out;
}

/** The value of header `name` in raw header lines (latin1), as sent. */
function headerOf(lines: string[], name: string): string | undefined {
  const line = lines.find((one) => one.toLowerCase().startsWith(`${name}:`));
  return line === undefined ? undefined : line.slice(name.length + 1).replace(/^[ \t]+/, '');
}

describe('header values made of random code points (seeded fuzz against the daemon)', () => {
  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Fetch Headers trim a value's leading and trailing whitespace.
  it.skipIf(ON_BUN)(
    'never kills the daemon; each answer is the exact stored bytes or a refusal with a code',
    async () => {
      const seed = 20261123;
      const random = prng(seed);
      const daemon = await startDaemon({ cwd: await makeTempDir() });
      const counts = { stored: 0, refused: 0, templated: 0 };
      const BATCHES = 12;
      const PER_BATCH = 25;
      for (let batch = 0; batch < BATCHES; batch++) {
        for (let i = 0; i < PER_BATCH; i++) {
          const n = batch * PER_BATCH + i;
          const name = `fz-${n % 7}`;
          const value = randomText(random, 1 + Math.floor(random() * 12));
          const why = `seed ${seed}, case ${n}, value ${jsonString(value)}`;
          const mode = n % 4;
          if (mode === 0 || mode === 1) {
            // A literal value, in a route or a queued answer.
            const answer = `{"headers":{"x-f":${jsonString(value)}},"body":"b"}`;
            const saved =
              mode === 0
                ? await send(`${daemon.url}/api/endpoints/${name}/routes`, 'PUT', `{"routes":[{"answer":${answer}}]}`)
                : await send(`${daemon.url}/api/endpoints/${name}/queue`, 'POST', `{"answers":[${answer}]}`);
            if (!VALID_VALUE.test(value)) {
              expect(saved, why).toMatchObject({ status: 400, body: { error: { code: 'INVALID_HEADER' } } });
              counts.refused++;
              continue;
            }
            expect(saved.status, why).toBe(mode === 0 ? 200 : 201);
            const got = await rawGet(daemon, `/endpoint/${name}/any`);
            expect([got.status, headerOf(got.lines, 'x-f'), got.body], why).toEqual([
              200,
              value.replace(/^[ \t]+/, ''),
              'b',
            ]);
            // Node trims nothing: the line carries exactly the stored bytes after "x-f: ".
            expect(got.lines, why).toContain(`x-f: ${value}`);
            counts.stored++;
          } else {
            // A templated value: the random text arrives in the path (percent-encoded UTF-8) or in a JSON body.
            counts.templated++;
            const inPath = mode === 2;
            const answer = inPath
              ? '{"template":true,"headers":{"x-f":"p={{params.id}}"},"body":"t"}'
              : '{"template":true,"headers":{"x-f":"b={{body.h}}"},"body":"t"}';
            const saved = await send(
              `${daemon.url}/api/endpoints/${name}/routes`,
              'PUT',
              `{"routes":[{"match":{"path":"/t/:id"},"answer":${answer}}]}`,
            );
            expect(saved.status, why).toBe(200);
            let got: { status: number; lines: string[]; body: string };
            let expected: string;
            if (inPath) {
              const segment = [...Buffer.from(value, 'utf8')]
                .map((b) => `%${b.toString(16).padStart(2, '0')}`)
                .join('');
              got = await rawGet(daemon, `/endpoint/${name}/t/${segment}`);
              const journal = (await send(`${daemon.url}/api/endpoints/${name}/requests`, 'GET')).body as {
                requests: { params: { id: string } }[];
              };
              const param = journal.requests.at(-1)?.params.id ?? '';
              expected = `p=${rendered(param)}`;
            } else {
              const response = await fetch(`${daemon.url}/endpoint/${name}/t/1`, {
                method: 'POST',
                body: `{"h":${jsonString(value)}}`,
              });
              await response.arrayBuffer();
              got = {
                status: response.status,
                lines: [`x-f: ${Buffer.from(response.headers.get('x-f') ?? '', 'latin1').toString('latin1')}`],
                body: 't',
              };
              expected = `b=${rendered(value)}`;
            }
            expect(got.status, why).toBe(200);
            expect(headerOf(got.lines, 'x-f'), why).toBe(expected);
            expect(VALID_VALUE.test(expected), why).toBe(true);
          }
        }
        await expectAlive(daemon);
      }
      // The fuzz covered every outcome.
      expect(counts.stored).toBeGreaterThan(20);
      expect(counts.refused).toBeGreaterThan(20);
      expect(counts.templated).toBe((BATCHES * PER_BATCH) / 2);
      expect(daemon.stderr).not.toContain('ERR_INVALID_CHAR');
    },
  );
});
