/**
 * The native listener's last resort: whatever fails while one request is
 * answered (the handler throws or rejects, Node refuses to write a head, at
 * once or after a delay, a frame fails mid-stream, a released hang fails) is
 * reported, that client alone gets 500 INTERNAL as JSON (or, once its head is
 * out, a broken connection), and the server goes on serving. A failure that
 * escaped would be an uncaught exception here, failing the run.
 */
import { listen } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import type { EndpointHandler } from '../../engine/endpoint-handler.js';
import { createApp, type MockpointApp } from '../../index.js';
import { createNodeListener } from './listener.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Serves an app whose handler answers the names below `/endpoint/x…` with `answers[path]`. */
async function setup(answers: Record<string, () => ReturnType<EndpointHandler['handle']>>) {
  const reported: unknown[] = [];
  const handled: Parameters<EndpointHandler['handle']>[0][] = [];
  const app: MockpointApp = createApp({ onUnexpectedError: (error) => reported.push(error) });
  await app.request('/api/endpoints/fine', { method: 'PUT', body: '{"data":"ok"}' });
  const { handler } = app.mockpoint;
  const real = handler.handle.bind(handler);
  // An own property shadows the method: the listener asks the handler as usual.
  Object.assign(handler, {
    handle: (request: Parameters<EndpointHandler['handle']>[0]) => {
      handled.push(request);
      const made = answers[request.target];
      return made === undefined ? real(request) : made();
    },
  });
  const port = await listen(createNodeListener(app, { overrideGlobalObjects: false }));
  const url = `http://127.0.0.1:${port}`;
  return { url, reported, handled };
}

/** A plain answer with headers Node refuses to write (what no check let through). */
function refused(delay = 0): EndpointAnswer {
  return { kind: 'respond', status: 200, headers: { 'x-e': '€uro' }, body: 'never', delay };
}

async function expectInternal(url: string): Promise<void> {
  const response = await fetch(url);
  expect(response.status, url).toBe(500);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('INTERNAL');
  expect(body.error.message).toContain('see the server log');
}

describe('the native listener never lets one request take the process down', () => {
  it('answers 500 INTERNAL to that client alone, reports it, and goes on serving', async () => {
    const { url, reported } = await setup({
      '/endpoint/throws': () => {
        throw new Error('handler threw');
      },
      '/endpoint/rejects': () => Promise.reject(new Error('handler rejected')),
      '/endpoint/refused': () => refused(),
      '/endpoint/refused-later': () => Promise.resolve(refused()),
      '/endpoint/refused-delayed': () => refused(5),
      '/endpoint/hang': () => ({
        kind: 'fault',
        fault: 'hang',
        status: 0,
        headers: {},
        body: null,
        delay: 0,
        // Released at once: what it then sends, next(), fails.
        release: AbortSignal.abort(),
        next: () => {
          throw new Error('next threw');
        },
      }),
    });
    for (const path of ['throws', 'rejects', 'refused', 'refused-later', 'refused-delayed', 'hang', 'throws']) {
      await expectInternal(`${url}/endpoint/${path}`);
      const fine = await fetch(`${url}/endpoint/fine`);
      expect([fine.status, await fine.json()]).toEqual([200, 'ok']);
    }
    expect(reported).toHaveLength(7);
    expect(reported.filter((error) => (error as { code?: string }).code === 'ERR_INVALID_CHAR')).toHaveLength(3);
  });

  it('gives the journal entry of the 500 its first and last byte times, as any answer', async () => {
    const { url, handled } = await setup({
      '/endpoint/throws': () => {
        throw new Error('handler threw');
      },
      '/endpoint/refused': () => refused(),
    });
    for (const path of ['throws', 'refused']) {
      await expectInternal(`${url}/endpoint/${path}`);
      const recorded = handled.find((request) => request.target === `/endpoint/${path}`);
      // 'finish' comes once the last byte is handed over; the client has read it all by now, or soon.
      await expect.poll(() => recorded?.doneAt, { timeout: 5000 }).toEqual(expect.any(Number));
      expect({ firstByteAt: recorded?.firstByteAt, doneAt: recorded?.doneAt }, path).toEqual({
        firstByteAt: expect.any(Number),
        doneAt: expect.any(Number),
      });
    }
  });

  it('breaks the connection when a frame fails after the head is out', async () => {
    const { url, reported } = await setup({
      '/endpoint/stream': () => ({
        kind: 'stream',
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        // Not bytes: Node refuses to write it, after the head has gone out.
        frames: [
          { bytes: new TextEncoder().encode('1\n'), delay: 0 },
          { bytes: 42 as unknown as Uint8Array, delay: 5 },
        ],
        end: 'close',
        delay: 0,
      }),
    });
    const response = await fetch(`${url}/endpoint/stream`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(reported).toHaveLength(1);
    const fine = await fetch(`${url}/endpoint/fine`);
    expect(fine.status).toBe(200);
  });
});
