import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { etagMatches } from '../codec/etag.js';
import { createApp, gzipEncoder } from '../index.js';
import { chooseEncoding } from './api-encoding.js';

const BIG = { text: 'x'.repeat(4000) };

async function seeded(options: Parameters<typeof createApp>[0] = {}) {
  const app = createApp(options);
  const add = await app.request('/api/endpoint/add', {
    method: 'PUT',
    body: JSON.stringify({ name: 'big', data: BIG }),
  });
  expect(add.status).toBe(201);
  return app;
}

describe('/api answers: ETag and compression', () => {
  it('GET /api/endpoints carries a weak ETag; the same If-None-Match gets 304 with no body, a change a new ETag', async () => {
    const app = await seeded();
    const first = await app.request('/api/endpoints?summary=true');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await app.request('/api/endpoints?summary=true', { headers: { 'if-none-match': etag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    await app.request('/api/endpoints/other', { method: 'PUT', body: '{"data":1}' });
    const changed = await app.request('/api/endpoints?summary=true', { headers: { 'if-none-match': etag as string } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as { total: number }).total).toBe(2);
  });

  it('compresses JSON answers of 1 KiB or more for a client that accepts the coding, and only then', async () => {
    const app = await seeded({ apiEncoders: { gzip: gzipEncoder } });
    const plain = await app.request('/api/endpoints/big');
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const zipped = await app.request('/api/endpoints/big', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(text.length / 10);
    expect(gunzipSync(bytes).toString('utf8')).toBe(text);
    // q=0 refuses; small answers are not worth it.
    const refused = await app.request('/api/endpoints/big', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    const small = await app.request('/api/health', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('never touches /endpoint answers nor the journal stream', async () => {
    const app = await seeded({ apiEncoders: { gzip: gzipEncoder } });
    const read = await app.request('/endpoint/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(read.headers.get('content-encoding')).toBeNull();
    expect(read.headers.get('etag')).toBeNull();
    expect(await read.text()).toBe(JSON.stringify(BIG));
    const controller = new AbortController();
    const stream = await app.request('/api/endpoints/big/requests/stream', {
      headers: { 'accept-encoding': 'gzip' },
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-encoding')).toBeNull();
    controller.abort();
    await stream.body?.cancel();
  });

  it('chooses brotli before gzip among the offered codings, and matches ETags weakly', () => {
    const both = { br: gzipEncoder, gzip: gzipEncoder };
    expect(chooseEncoding('gzip, deflate, br', both)).toBe('br');
    expect(chooseEncoding('gzip, br;q=0', both)).toBe('gzip');
    expect(chooseEncoding('br', { gzip: gzipEncoder })).toBeUndefined();
    expect(chooseEncoding(undefined, both)).toBeUndefined();
    expect(etagMatches('"a", W/"b"', 'W/"b"')).toBe(true);
    expect(etagMatches('"b"', 'W/"b"')).toBe(true);
    expect(etagMatches('*', 'W/"b"')).toBe(true);
    expect(etagMatches('W/"c"', 'W/"b"')).toBe(false);
  });
});
