import * as harValidator from 'har-validator';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: Array<{
      startedDateTime: string;
      request: {
        method: string;
        url: string;
        headers: Array<{ name: string; value: string }>;
        queryString: Array<{ name: string; value: string }>;
        cookies: Array<{ name: string; value: string }>;
        postData?: { mimeType: string; text: string; _encoding?: string };
        bodySize: number;
        comment?: string;
      };
      response: { status: number; content: { size: number; mimeType: string } };
      _mockpoint: { name: string; id: number; subpath: string; answeredBy: unknown };
    }>;
  };
}

async function exported(app: MockpointApp, query = ''): Promise<{ response: Response; har: Har }> {
  const response = await app.request(`/api/requests.har${query}`);
  expect(response.status).toBe(200);
  const har = (await response.json()) as Har;
  // The HAR 1.2 schema as published (har-schema, through har-validator): throws naming what does not fit.
  await expect(harValidator.har(har)).resolves.toBe(har);
  return { response, har };
}

describe('GET /api/requests.har', () => {
  it('is a valid HAR 1.2 document of every request, oldest first, each exactly as it arrived', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: '{"name":"hook","data":{"ok":true},"statusCode":202}',
    });
    const text = '{"big":12345678901234567890,"name":"Zoë"}';
    await app.request('/endpoint/hook/events?tag=a&tag=b&x=%20y', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'session=abc; theme=dark', host: 'hooks.test:8080' },
      body: text,
    });
    const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x41]);
    await app.request('/endpoint/other', {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    await app.request('/endpoint/hook');

    const { response, har } = await exported(app);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="mockpoint.har"');
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('mockpoint');
    expect(har.log.entries.map((entry) => [entry._mockpoint.name, entry.request.method])).toEqual([
      ['hook', 'POST'],
      ['other', 'PUT'],
      ['hook', 'GET'],
    ]);
    const [post, put, get] = har.log.entries;
    expect(post?.request.url).toBe('http://hooks.test:8080/endpoint/hook/events?tag=a&tag=b&x=+y');
    expect(post?.request.queryString).toEqual([
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
      { name: 'x', value: ' y' },
    ]);
    expect(post?.request.cookies).toEqual([
      { name: 'session', value: 'abc' },
      { name: 'theme', value: 'dark' },
    ]);
    expect(post?.request.headers).toContainEqual({ name: 'content-type', value: 'application/json' });
    expect(post?.request.postData).toEqual({ mimeType: 'application/json', text });
    expect(post?.request.bodySize).toBe(new TextEncoder().encode(text).byteLength);
    expect(post?._mockpoint.subpath).toBe('/events');
    expect(post?.response.status).toBe(404);
    // Bytes that are not UTF-8: base64, marked (also as Playwright's routeFromHAR reads it), and their size is the bytes'.
    expect(put?.request.postData).toEqual({
      mimeType: 'application/octet-stream',
      text: '/wD+QQ==',
      _encoding: 'base64',
      encoding: 'base64',
    });
    expect(put?.request.bodySize).toBe(4);
    expect(get?.request.postData).toBeUndefined();
    expect(get?.request.url).toBe('http://localhost/endpoint/hook');
    expect(get?.response.status).toBe(202);
    expect(get?._mockpoint.answeredBy).toBe('record');
  });

  it('with name, only that name, as a file named after it', async () => {
    const app = createApp();
    await app.request('/endpoint/a');
    await app.request('/endpoint/b');
    await app.request('/endpoint/a', { method: 'DELETE' });
    const { response, har } = await exported(app, '?name=a');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="mockpoint-a.har"');
    expect(har.log.entries.map((entry) => [entry._mockpoint.name, entry.request.method])).toEqual([
      ['a', 'GET'],
      ['a', 'DELETE'],
    ]);
  });

  it('an empty journal is a valid HAR with no entries', async () => {
    const { har } = await exported(createApp());
    expect(har.log.entries).toEqual([]);
  });

  it('reads a journal longer than a page, every entry once, in id order', async () => {
    const app = createApp({ journalSize: 1000 });
    for (let i = 0; i < 600; i++) await app.request(`/endpoint/many?i=${i}`);
    const { har } = await exported(app);
    expect(har.log.entries).toHaveLength(600);
    expect(har.log.entries.map((entry) => entry.request.queryString[0]?.value)).toEqual(
      Array.from({ length: 600 }, (_, i) => String(i)),
    );
  });

  it('says when a body was longer than the journal keeps', async () => {
    const app = createApp();
    await app.request('/endpoint/big', { method: 'POST', body: 'x'.repeat(200_000) });
    const { har } = await exported(app);
    const request = har.log.entries[0]?.request;
    expect(request?.bodySize).toBe(-1);
    expect(request?.comment).toMatch(/longer than the journal keeps/);
  });

  it('refuses a name the journal cannot hold with INVALID_NAME', async () => {
    const response = await createApp().request(`/api/requests.har?name=${'x'.repeat(2000)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_NAME');
  });
});
