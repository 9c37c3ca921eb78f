import { describe, expect, it } from 'vitest';
import { JsonText } from '../../codec/json-text.js';
import type { ErrorCode } from '../../registry/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../registry/limits.js';
import { createApp, type MockpointApp } from '../create-app.js';

const ADD = 'http://localhost/api/endpoint/add';

/** PUTs `body` (an object is JSON-encoded, a string is sent as it is) to the add route. */
async function add(app: MockpointApp, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return await app.request(ADD, { method: 'PUT', body: text, headers });
}

/** Asserts the standard error response: status, exact body shape and content type. */
async function expectError(response: Response, status: number, code: ErrorCode): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await response.json()) as { success: unknown; error: { code: unknown; message: unknown } };
  expect(body).toStrictEqual({ success: false, error: { code, message: expect.any(String) } });
  expect(Object.keys(body).sort()).toEqual(['error', 'success']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  expect(body.error.message).not.toBe('');
  return body.error.message as string;
}

/** Asserts nothing is stored under `name`. */
async function expectAbsent(app: MockpointApp, name: string): Promise<void> {
  expect(await app.mockpoint.endpoints.store.get(name)).toBeUndefined();
}

describe('PUT /api/endpoint/add: success', () => {
  it('answers 201 with the record, defaulting statusCode to 200 and delay to 0', async () => {
    const app = createApp();
    const response = await add(app, { name: 'hello', data: { greeting: 'hi' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toStrictEqual({
      success: true,
      name: 'hello',
      data: { greeting: 'hi' },
      statusCode: 200,
      delay: 0,
    });
    expect(await app.mockpoint.endpoints.store.get('hello')).toEqual({
      name: 'hello',
      data: new JsonText('{"greeting":"hi"}'),
      statusCode: 200,
      delay: 0,
    });
  });

  it('echoes an explicit statusCode and delay, and the endpoint is readable immediately', async () => {
    const app = createApp();
    const response = await add(app, { name: 'explicit', data: [1, 2], statusCode: 418, delay: 1 });
    expect(await response.json()).toStrictEqual({
      success: true,
      name: 'explicit',
      data: [1, 2],
      statusCode: 418,
      delay: 1,
    });
    const read = await app.request('/endpoint/explicit');
    expect(read.status).toBe(418);
    expect(await read.json()).toEqual([1, 2]);
  });

  it('accepts the boundary values of every field', async () => {
    const app = createApp();
    const cases = [
      { name: 'a'.repeat(64), data: 1 },
      { name: 'Az09_-', data: 1 },
      { name: '_', data: 1 },
      { name: '-', data: 1 },
      { name: 'low', data: 1, statusCode: 200, delay: 0 },
      { name: 'high', data: 1, statusCode: 599, delay: 60_000 },
    ];
    for (const body of cases) {
      const response = await add(app, body);
      expect(response.status, body.name).toBe(201);
    }
  });

  it('stores data of every JSON kind and serves it back unchanged', async () => {
    const app = createApp();
    const values: Record<string, unknown> = {
      object: { a: 1, b: { c: [true, null] } },
      array: [1, 'two', { three: 3 }],
      string: 'just text',
      empty: '',
      number: -12.5,
      zero: 0,
      boolean: false,
      null: null,
      nested: { l1: { l2: { l3: { l4: [[{ deep: true }]] } } } },
      unicode: { text: 'héllo — 日本語 — 🎉', κλειδί: 'τιμή' },
    };
    for (const [name, data] of Object.entries(values)) {
      const response = await add(app, { name, data });
      expect(response.status, name).toBe(201);
      expect(((await response.json()) as { data: unknown }).data).toStrictEqual(data);
      const read = await app.request(`/endpoint/${name}`);
      expect(await read.text(), name).toBe(JSON.stringify(data));
    }
  });

  it('parses the body as JSON whatever the Content-Type says', async () => {
    const app = createApp();
    const contentTypes = [
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded', // what `curl -d` sends
      'application/octet-stream',
      'multipart/form-data; boundary=x',
    ];
    for (const [i, contentType] of contentTypes.entries()) {
      const response = await add(app, { name: `ct${i}`, data: { contentType } }, { 'content-type': contentType });
      expect(response.status, contentType).toBe(201);
    }
    // No Content-Type at all (bytes, so fetch does not add text/plain).
    const bytes = new TextEncoder().encode(JSON.stringify({ name: 'none', data: 'no type' }));
    const request = new Request(ADD, { method: 'PUT', body: bytes });
    expect(request.headers.get('content-type')).toBeNull();
    const response = await app.fetch(request);
    expect(response.status).toBe(201);
    expect(await app.mockpoint.endpoints.store.get('none')).toMatchObject({ data: new JsonText('"no type"') });
  });

  it('accepts data: null as a value', async () => {
    const app = createApp();
    const response = await add(app, { name: 'nothing', data: null });
    expect(response.status).toBe(201);
    expect(await response.json()).toStrictEqual({
      success: true,
      name: 'nothing',
      data: null,
      statusCode: 200,
      delay: 0,
    });
    const read = await app.request('/endpoint/nothing');
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('null');
  });

  it('treats __proto__ and constructor as ordinary names', async () => {
    const app = createApp();
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const response = await add(app, { name, data: { name } });
      expect(response.status, name).toBe(201);
      expect(await response.json()).toStrictEqual({ success: true, name, data: { name }, statusCode: 200, delay: 0 });
    }
  });

  it('names are case-sensitive: Name and name are two endpoints', async () => {
    const app = createApp();
    expect((await add(app, { name: 'Name', data: 'upper' })).status).toBe(201);
    expect((await add(app, { name: 'name', data: 'lower' })).status).toBe(201);
    expect(await (await app.request('/endpoint/Name')).json()).toBe('upper');
    expect(await (await app.request('/endpoint/name')).json()).toBe('lower');
  });
});

describe('PUT /api/endpoint/add: invalid input', () => {
  it('rejects a body that is not JSON with 400 INVALID_JSON', async () => {
    const app = createApp();
    for (const body of ['{name:', 'hello', "{'name':'a','data':1}", '{"name":"a","data":1} trailing', '{"a":1,}']) {
      await expectError(await add(app, body), 400, 'INVALID_JSON');
    }
  });

  it('rejects an empty body with 400 INVALID_JSON', async () => {
    const app = createApp();
    await expectError(await add(app, ''), 400, 'INVALID_JSON');
    await expectError(await add(app, '   \n'), 400, 'INVALID_JSON');
    await expectError(await app.request(ADD, { method: 'PUT' }), 400, 'INVALID_JSON');
  });

  it('rejects JSON that is not an object with 400 INVALID_BODY', async () => {
    const app = createApp();
    for (const body of ['null', '[]', '[{"name":"a","data":1}]', '"text"', '42', 'true']) {
      await expectError(await add(app, body), 400, 'INVALID_BODY');
    }
    await expectAbsent(app, 'a');
  });

  it('rejects invalid names with 400 INVALID_NAME', async () => {
    const app = createApp();
    const names: unknown[] = [
      '',
      'a'.repeat(65),
      'has space',
      'a/b',
      'a.b',
      '..',
      'héllo',
      '日本',
      '🎉',
      'a\nb',
      42,
      null,
    ];
    for (const name of names) {
      const message = await expectError(await add(app, { name, data: 1 }), 400, 'INVALID_NAME');
      expect(message).toContain('1-64');
    }
    await expectError(await add(app, { data: 1 }), 400, 'INVALID_NAME');
    expect((await app.mockpoint.endpoints.list({ limit: 10 })).endpoints).toEqual([]);
  });

  it('rejects a missing data field with 400 MISSING_DATA', async () => {
    const app = createApp();
    await expectError(await add(app, { name: 'nodata' }), 400, 'MISSING_DATA');
    await expectError(await add(app, { name: 'nodata', statusCode: 200, delay: 0 }), 400, 'MISSING_DATA');
    await expectAbsent(app, 'nodata');
  });

  it('rejects a statusCode outside 200-599 or not an integer with 400 INVALID_STATUS_CODE', async () => {
    const app = createApp();
    for (const statusCode of [199, 600, 200.5, '200', null, true, 0, -200, 1e3]) {
      const message = await expectError(await add(app, { name: 's', data: 1, statusCode }), 400, 'INVALID_STATUS_CODE');
      expect(message, `statusCode ${JSON.stringify(statusCode)}`).toBe('statusCode must be an integer from 200 to 599');
    }
    await expectAbsent(app, 's');
  });

  it('rejects a delay outside 0-60000 or not an integer with 400 INVALID_DELAY', async () => {
    const app = createApp();
    for (const delay of [-1, 60_001, 1.5, '10', null, false]) {
      const message = await expectError(await add(app, { name: 'd', data: 1, delay }), 400, 'INVALID_DELAY');
      expect(message, `delay ${JSON.stringify(delay)}`).toBe(
        'delay must be a whole number of milliseconds from 0 to 60000',
      );
    }
    await expectAbsent(app, 'd');
  });

  it('refuses data nested deeper than 512 levels with 400 INVALID_BODY, and accepts 512', async () => {
    const app = createApp();
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const tooDeep = await app.request(ADD, { method: 'PUT', body: `{"name":"deep","data":${deep(600)}}` });
    const message = await expectError(tooDeep, 400, 'INVALID_BODY');
    expect(message).toContain('512');
    await expectAbsent(app, 'deep');
    // The body object itself is one level: 511 more fit.
    const ok = await app.request(ADD, { method: 'PUT', body: `{"name":"deep","data":${deep(511)}}` });
    expect(ok.status).toBe(201);
    expect((await app.request('/endpoint/deep')).status).toBe(200);
  });

  it('honours a custom maxDelayMs', async () => {
    const strict = createApp({ maxDelayMs: 1000 });
    const message = await expectError(await add(strict, { name: 'd', data: 1, delay: 1001 }), 400, 'INVALID_DELAY');
    expect(message).toBe('delay must be a whole number of milliseconds from 0 to 1000');
    const fraction = await expectError(await add(strict, { name: 'd', data: 1, delay: 0.5 }), 400, 'INVALID_DELAY');
    expect(fraction).toBe('delay must be a whole number of milliseconds from 0 to 1000');
    expect((await add(strict, { name: 'd', data: 1, delay: 1000 })).status).toBe(201);

    const lenient = createApp({ maxDelayMs: 120_000 });
    expect((await add(lenient, { name: 'd', data: 1, delay: 90_000 })).status).toBe(201);
    await expectError(await add(lenient, { name: 'e', data: 1, delay: 120_001 }), 400, 'INVALID_DELAY');
  });

  it('rejects unknown fields with 400 UNKNOWN_FIELD naming them', async () => {
    const app = createApp();
    const message = await expectError(await add(app, { name: 'u', data: 1, extra: true }), 400, 'UNKNOWN_FIELD');
    expect(message).toContain('extra');
    await expectError(await add(app, { name: 'u', data: 1, success: true }), 400, 'UNKNOWN_FIELD');
    await expectError(await add(app, { name: 'u', data: 1, Name: 'x' }), 400, 'UNKNOWN_FIELD');
    await expectError(await add(app, '{"name":"u","data":1,"__proto__":{"x":1}}'), 400, 'UNKNOWN_FIELD');
    await expectError(await add(app, '{"name":"u","data":1,"constructor":1}'), 400, 'UNKNOWN_FIELD');
    await expectAbsent(app, 'u');
  });
});

describe('PUT /api/endpoint/add: name taken', () => {
  it('answers 409 NAME_TAKEN and leaves the stored record unchanged', async () => {
    const app = createApp();
    expect((await add(app, { name: 'dup', data: { v: 1 }, statusCode: 201, delay: 0 })).status).toBe(201);
    // Read once so the cached answer is in play too.
    expect(await (await app.request('/endpoint/dup')).json()).toEqual({ v: 1 });

    const message = await expectError(
      await add(app, { name: 'dup', data: { v: 2 }, statusCode: 500, delay: 10 }),
      409,
      'NAME_TAKEN',
    );
    expect(message).toContain('dup');
    expect(await app.mockpoint.endpoints.store.get('dup')).toEqual({
      name: 'dup',
      data: new JsonText('{"v":1}'),
      statusCode: 201,
      delay: 0,
    });
    const read = await app.request('/endpoint/dup');
    expect(read.status).toBe(201);
    expect(await read.json()).toEqual({ v: 1 });
  });

  it('concurrent adds of one name: exactly one 201, the rest 409', async () => {
    const app = createApp();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => add(app, { name: 'race', data: { writer: i } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = statuses.indexOf(201);
    expect(await (await app.request('/endpoint/race')).json()).toEqual({ writer: winner });
  });
});

describe('PUT /api/endpoint/add: body size limit', () => {
  /** A valid add body padded with trailing spaces to exactly `bytes` UTF-8 bytes. */
  function paddedBody(name: string, bytes: number): string {
    const json = JSON.stringify({ name, data: 'x' });
    return json + ' '.repeat(bytes - json.length);
  }

  it('accepts a body of exactly maxBodyBytes and rejects one byte more with 413 BODY_TOO_LARGE', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    expect((await add(app, paddedBody('fits', 1024))).status).toBe(201);
    await expectError(await add(app, paddedBody('over', 1025)), 413, 'BODY_TOO_LARGE');
    await expectAbsent(app, 'over');
  });

  it('counts bytes, not characters', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    // 600 characters of two UTF-8 bytes each: under 1024 characters, over 1024 bytes.
    const body = JSON.stringify({ name: 'wide', data: 'é'.repeat(600) });
    expect(body.length).toBeLessThan(1024);
    await expectError(await add(app, body), 413, 'BODY_TOO_LARGE');
    await expectAbsent(app, 'wide');
  });

  it('rejects a declared Content-Length over the limit with 413', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    const body = JSON.stringify({ name: 'declared', data: 'y'.repeat(2000) });
    const response = await add(app, body, { 'content-length': String(body.length) });
    await expectError(response, 413, 'BODY_TOO_LARGE');
    await expectAbsent(app, 'declared');
  });

  it('rejects on the declared Content-Length alone, before reading the body', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    // The body itself is small and valid: only the header can cause the 413.
    const response = await add(app, { name: 'liar', data: 1 }, { 'content-length': '5000' });
    await expectError(response, 413, 'BODY_TOO_LARGE');
    await expectAbsent(app, 'liar');
  });

  it('rejects a chunked body without Content-Length past the limit, after reading and dropping the rest (up to a bound)', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    const chunk = new TextEncoder().encode('x'.repeat(256));
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"chunked","data":"'));
      },
      pull(controller) {
        pulled++;
        if (pulled > 1000)
          controller.close(); // 256 KB, within the drain bound (DRAIN_BYTES past the limit)
        else controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request(ADD, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    await expectError(await app.fetch(request), 413, 'BODY_TOO_LARGE');
    // Read to its end (the client finishes sending and reads the 413), nothing of it kept.
    expect(pulled).toBe(1001);
    expect(cancelled).toBe(false);
    await expectAbsent(app, 'chunked');
  });

  it('accepts a chunked body under the limit', async () => {
    const app = createApp({ maxBodyBytes: 1024 });
    const parts = ['{"name":"stre', 'amed","da', 'ta":{"ok":', 'true}}'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const request = new Request(ADD, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    const response = await app.fetch(request);
    expect(response.status).toBe(201);
    expect(await app.mockpoint.endpoints.store.get('streamed')).toMatchObject({ data: new JsonText('{"ok":true}') });
  });

  it('defaults the limit to 5 MiB', async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(5 * 1024 * 1024);
    const app = createApp();
    const json = JSON.stringify({ name: 'big', data: 'z'.repeat(DEFAULT_MAX_BODY_BYTES - 100) });
    const padded = json + ' '.repeat(DEFAULT_MAX_BODY_BYTES - json.length);
    expect((await add(app, padded)).status).toBe(201);
    await expectError(await add(app, `${padded} `), 413, 'BODY_TOO_LARGE');
  });
});
