/**
 * The one header rule (codec/http-header.ts) wherever an answer's headers are
 * taken: what HTTP cannot carry is refused at save with INVALID_HEADER (routes,
 * queued answers, streams), a templated value is made sendable when rendered,
 * and an answer kept before the rule (written to the store directly) answers
 * 500 ANSWER_NOT_SENDABLE on both Node adapters instead of failing while sent.
 */
import { closeListeners } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, MemoryStore, type MockpointApp, type Route } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS } from '../../test-support/node-adapters.js';

afterEach(closeListeners);

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

/** Header values HTTP cannot carry, as JSON string contents (so lone surrogates travel as escapes). */
const UNSENDABLE: [string, string][] = [
  ['a non-Latin-1 character', '\\u20acuro'],
  ['a Latin-1 character', 'caf\\u00e9'],
  ['a C1 control', '\\u0080'],
  ['a C0 control', 'a\\u0001b'],
  ['DEL', 'a\\u007fb'],
  ['a line separator', 'a\\u2028b'],
  ['an astral character', 'a\\ud83d\\ude00'],
  ['a lone surrogate', '\\ud800'],
  ['CR LF', 'a\\r\\nset-cookie: x=1'],
];

describe('header values at save', () => {
  it.each(UNSENDABLE)('refuses %s in a route, a queued answer and a stream answer', async (_, value) => {
    const app = createApp();
    const answers = [
      `{"headers":{"x-v":"${value}"}}`,
      `{"headers":{"x-v":["ok","${value}"]},"body":"b"}`,
      `{"headers":{"x-v":"${value}"},"stream":{"format":"ndjson","events":[{"data":1}]}}`,
      `{"template":true,"headers":{"x-v":"{{query.a}}${value}"}}`,
    ];
    for (const answer of answers) {
      const routes = await app.request('/api/endpoints/h/routes', {
        method: 'PUT',
        body: `{"routes":[{"answer":${answer}}]}`,
      });
      expect(await errorOf(routes), answer).toMatchObject({ status: 400, code: 'INVALID_HEADER' });
      const queued = await app.request('/api/endpoints/h/queue', { method: 'POST', body: `{"answers":[${answer}]}` });
      expect(await errorOf(queued), answer).toMatchObject({ status: 400, code: 'INVALID_HEADER' });
    }
    expect(await (await app.request('/api/endpoints/h/routes')).json()).toEqual({ routes: [] });
  });

  it('names the character and the rule', async () => {
    const app = createApp();
    const response = await app.request('/api/endpoints/h/routes', {
      method: 'PUT',
      body: '{"routes":[{"answer":{"headers":{"x-e":"\\u20acuro"}}}]}',
    });
    const error = await errorOf(response);
    expect(error.message).toContain('U+20AC "€" at index 0');
    expect(error.message).toContain('percent-encode');
  });

  it('refuses a header named __proto__ (a route, a queued answer), which could not be sent everywhere', async () => {
    const app = createApp();
    const routes = await app.request('/api/endpoints/h/routes', {
      method: 'PUT',
      body: '{"routes":[{"answer":{"headers":{"__proto__":"x"}}}]}',
    });
    expect(await errorOf(routes)).toMatchObject({ status: 400, code: 'INVALID_HEADER' });
    const queued = await app.request('/api/endpoints/h/queue', {
      method: 'POST',
      body: '{"answers":[{"headers":{"__proto__":"x"},"body":"b"}]}',
    });
    expect(await errorOf(queued)).toMatchObject({ status: 400, code: 'INVALID_HEADER' });
  });

  it('takes tab, space and visible ASCII', async () => {
    const app = createApp();
    const response = await app.request('/api/endpoints/h/routes', {
      method: 'PUT',
      body: '{"routes":[{"answer":{"headers":{"x-v":" a\\tb ~!%E2%82%AC ","x-w":["",""]}}}]}',
    });
    expect(response.status).toBe(200);
  });
});

describe.each(NODE_ADAPTER_NAMES)('header values when sent (%s adapter)', (adapter) => {
  async function serve(app: MockpointApp): Promise<string> {
    return `http://127.0.0.1:${await NODE_ADAPTERS[adapter](app)}`;
  }

  it('percent-encodes what a placeholder inserts and a header cannot carry (UTF-8), and sends request header bytes back as they came', async () => {
    const app = createApp();
    const routes = [
      {
        match: { path: '/u/:id' },
        answer: {
          template: true,
          statusCode: 201,
          headers: {
            location: '/items/{{params.id}}',
            'x-body': '{{body.h}}',
            'x-query': 'q={{query.q}}',
            'x-echo': '{{headers.x-in}}',
          },
        },
      },
    ];
    const put = await app.request('/api/endpoints/t/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    expect(put.status).toBe(200);
    const url = await serve(app);
    const call = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/endpoint/t${path}`, { method: 'POST', body, headers });

    const euro = await call('/u/%E2%82%AC?q=%0D%0Aset-cookie:%20x', '{"h":"a\\u2028b\\u0001\\u00e9"}', {
      'x-in': 'plain',
    });
    expect(euro.status).toBe(201);
    expect(euro.headers.get('location')).toBe('/items/%E2%82%AC');
    expect(euro.headers.get('x-body')).toBe('a%E2%80%A8b%01%C3%A9');
    expect(euro.headers.get('x-query')).toBe('q=%0D%0Aset-cookie: x');
    expect(euro.headers.get('set-cookie')).toBeNull();
    expect(euro.headers.get('x-echo')).toBe('plain');

    // A lone surrogate (from JSON) and an astral character (from the path) are UTF-8 too (U+FFFD for the former).
    const odd = await call('/u/%F0%9F%98%80', '{"h":"\\ud800"}');
    expect(odd.headers.get('location')).toBe('/items/%F0%9F%98%80');
    expect(odd.headers.get('x-body')).toBe('%EF%BF%BD');

    // A request header's value is bytes (fetch sends this one as the UTF-8 of café): each byte past ASCII encoded.
    const echo = await call('/u/1', '{}', { 'x-in': Buffer.from('café', 'utf8').toString('latin1') });
    expect(echo.headers.get('x-echo')).toBe('caf%C3%A9');
  });

  it('answers 500 ANSWER_NOT_SENDABLE for an answer kept before the rule, and goes on serving', async () => {
    const store = new MemoryStore();
    const app = createApp({ store });
    // Written to the store directly, as an earlier version could have kept it.
    const kept: Route[] = [
      { id: 'euro', match: { path: '/e' }, answer: { headers: { 'x-e': '€uro' }, body: 'e' } },
      { id: 'ctl', match: { path: '/c' }, answer: { headers: { 'x-c': 'a\u0001b' }, delay: 5 } },
      { id: 'tpl', match: { path: '/t' }, answer: { template: true, headers: { 'x-t': '€{{query.a}}' } } },
      // Refused at save now, but it can be sent: it goes out as it did.
      { id: 'ok', match: { path: '/ok' }, answer: { headers: { 'x-ok': 'é' }, body: 'fine' } },
    ];
    await store.updateRoutes('old', () => kept);
    const url = await serve(app);
    for (const path of ['/e', '/c', '/t', '/e']) {
      const response = await fetch(`${url}/endpoint/old${path}`);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      const error = await errorOf(response);
      expect(error, path).toMatchObject({ status: 500, code: 'ANSWER_NOT_SENDABLE' });
      expect(error.message, path).toMatch(/header x-[ect] has U\+/);
    }
    const head = await fetch(`${url}/endpoint/old/e`, { method: 'HEAD' });
    expect(head.status).toBe(500);
    const ok = await fetch(`${url}/endpoint/old/ok`);
    expect([ok.status, await ok.text()]).toEqual([200, 'fine']);
    const journal = (await (await app.request('/api/endpoints/old/requests')).json()) as {
      requests: { statusCode: number }[];
    };
    expect(journal.requests.map((entry) => entry.statusCode)).toEqual([500, 500, 500, 500, 500, 200]);
  });
});
