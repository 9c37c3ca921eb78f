// The journal stream over node:http (the daemon's and createMockServer()'s adapter).
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readSse } from '../../client/sse-reader.js';
import { createApp } from '../../index.js';
import { serve } from './index.js';

describe('journal stream on node:http', () => {
  it('streams a webhook as it lands, uncompressed and unbuffered, and ends at once on close() (not after the grace period)', async () => {
    const served = await serve(createApp(), { overrideGlobalObjects: false });
    try {
      const response = await fetch(`${served.url}/api/endpoints/hook/requests/stream`, {
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const events = readSse(response.body as ReadableStream<Uint8Array>);
      expect((await events.next()).value?.event).toBe('journal');
      // The native /endpoint path (no Fetch objects) records it; the stream has it right after.
      const body = Buffer.from([0, 159, 146, 150, 255]);
      await new Promise<void>((resolve, reject) => {
        const post = httpRequest(`${served.url}/endpoint/hook?x=1`, { method: 'POST' }, (answer) => {
          answer.resume();
          answer.on('end', resolve);
        });
        post.on('error', reject);
        post.end(body);
      });
      const request = (await events.next()).value;
      expect(request?.event).toBe('request');
      const entry = JSON.parse(request?.data ?? '{}');
      expect(entry).toMatchObject({
        name: 'hook',
        method: 'POST',
        path: '/endpoint/hook',
        query: { x: '1' },
        bodyEncoding: 'base64',
      });
      expect(Buffer.from(entry.body, 'base64')).toEqual(body);

      const started = Date.now();
      // A 20 s grace period: only ending the stream itself lets close() finish well before it.
      await served.close({ graceMs: 20_000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      const last = (await events.next()).value;
      expect(last?.event).toBe('end');
      expect(JSON.parse(last?.data ?? '{}').reason).toBe('shutdown');
      expect((await events.next()).done).toBe(true);
    } finally {
      await served.close();
    }
  });
});
