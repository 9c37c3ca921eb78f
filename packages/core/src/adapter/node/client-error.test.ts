// A request head past Node's 16 KiB (issue #86): a long URL is 414 URI_TOO_LONG, long headers 431
// HEADERS_TOO_LARGE, and the client reads the answer even while it is still sending (a URL of
// 100,000 characters was a connection reset, no status). Over real sockets, with Node's fetch.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { type ServedApp, serve } from './index.js';

let served: ServedApp;
beforeAll(async () => {
  served = await serve(createApp(), { overrideGlobalObjects: false });
});
afterAll(() => served.close());

/** The status and error code of a GET of `path` with `headers`, or how it failed. */
async function get(path: string, headers: Record<string, string> = {}): Promise<string> {
  try {
    const answer = await fetch(`${served.url}${path}`, { headers });
    const body = (await answer.json()) as { error?: { code: string } };
    return `${answer.status} ${body.error?.code}`;
  } catch (error) {
    return `failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`;
  }
}

it('a URL of 20,000, 100,000 and 1,000,000 characters: 414 URI_TOO_LONG every time, read by the client', async () => {
  const seen: string[] = [];
  for (const length of [20_000, 100_000, 1_000_000]) {
    for (const path of ['/endpoint/x?q=', '/api/endpoints?q=']) {
      for (let i = 0; i < 3; i++) seen.push(await get(`${path}${'a'.repeat(length)}`));
    }
  }
  expect(seen).toEqual(Array(18).fill('414 URI_TOO_LONG'));
  expect(await get('/api/health')).toBe('200 undefined');
});

it('headers past 16 KiB: 431 HEADERS_TOO_LARGE; the server answers on', async () => {
  expect(await get('/api/health', { 'x-big': 'b'.repeat(20_000) })).toBe('431 HEADERS_TOO_LARGE');
  expect(await get('/endpoint/x', { 'x-big': 'b'.repeat(200_000) })).toBe('431 HEADERS_TOO_LARGE');
  expect(await get('/api/health')).toBe('200 undefined');
});
