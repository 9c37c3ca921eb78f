import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import { constantTimeEqual } from './auth.js';

const TOKEN = 's3cret-token';

/** Every `/api/*` write, each runnable on a fresh app in any order. */
const WRITES: [string, string, string, (app: MockpointApp) => Promise<void>, number][] = [
  ['PUT', '/api/endpoint/add', JSON.stringify({ name: 'w', data: 1 }), async () => undefined, 201],
  ['PUT', '/api/endpoints/w', JSON.stringify({ data: 2 }), async () => undefined, 201],
  ['DELETE', '/api/endpoints/w', '', (app) => seed(app), 204],
  ['DELETE', '/api/endpoints', '', (app) => seed(app), 204],
  ['DELETE', '/api/endpoints/w/requests', '', (app) => journalOne(app), 204],
  // Port 9 (discard) on loopback: nothing listens, so the delivery fails and sends nothing anywhere.
  ['POST', '/api/deliveries', JSON.stringify({ url: 'http://127.0.0.1:9/x', data: 1 }), async () => undefined, 202],
];

async function seed(app: MockpointApp): Promise<void> {
  const response = await app.request('/api/endpoint/add', {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ name: 'w', data: 'seeded' }),
  });
  expect(response.status).toBe(201);
}

/** Records one request for `w`, so clearing the journal would be visible. */
async function journalOne(app: MockpointApp): Promise<void> {
  await app.request('/endpoint/w', { method: 'POST', body: 'hello' });
}

/** Everything a write could change: the endpoints and the journal of `w`. */
async function snapshot(app: MockpointApp): Promise<unknown> {
  const endpoints = await (await app.request('/api/endpoints')).json();
  const journal = await (await app.request('/api/endpoints/w/requests')).json();
  const deliveries = await (await app.request('/api/deliveries')).json();
  return { endpoints, journal, deliveries };
}

function send(app: MockpointApp, method: string, path: string, body: string, authorization?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  return app.request(path, { method, headers, body: body === '' ? undefined : body });
}

describe('admin token', () => {
  describe.each(WRITES)('%s %s', (method, path, body, prepare, okStatus) => {
    it.each([
      ['no token', undefined],
      ['a wrong token', 'Bearer wrong-token'],
      ['a token one character short', `Bearer ${TOKEN.slice(0, -1)}`],
      ['the token without the Bearer scheme', TOKEN],
      ['an empty bearer', 'Bearer '],
    ])('answers 401 UNAUTHORIZED with %s and changes nothing', async (_label, authorization) => {
      const app = createApp({ adminToken: TOKEN });
      await prepare(app);
      const before = await snapshot(app);
      const response = await send(app, method, path, body, authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const error = (await response.json()) as { success: boolean; error: { code: string; message: string } };
      expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
      expect(await snapshot(app)).toEqual(before);
    });

    it('works with the right token (scheme case-insensitive)', async () => {
      for (const scheme of ['Bearer', 'bearer']) {
        const app = createApp({ adminToken: TOKEN });
        await prepare(app);
        const response = await send(app, method, path, body, `${scheme} ${TOKEN}`);
        expect(response.status).toBe(okStatus);
      }
    });

    it('needs no token when none is configured (off by default)', async () => {
      for (const app of [createApp(), createApp({ adminToken: '' })]) {
        await prepare(app);
        const response = await send(app, method, path, body);
        expect(response.status).toBe(okStatus);
      }
    });
  });

  it('says whether the token is missing or wrong', async () => {
    const app = createApp({ adminToken: TOKEN });
    const missing = await send(app, 'DELETE', '/api/endpoints', '');
    const wrong = await send(app, 'DELETE', '/api/endpoints', '', 'Bearer nope');
    const missingMessage = ((await missing.json()) as { error: { message: string } }).error.message;
    const wrongMessage = ((await wrong.json()) as { error: { message: string } }).error.message;
    expect(missingMessage).toMatch(/Authorization: Bearer/);
    expect(wrongMessage).toMatch(/wrong/);
    expect(missingMessage).not.toContain(TOKEN);
    expect(wrongMessage).not.toContain(TOKEN);
  });

  it('keeps every /api read open', async () => {
    const app = createApp({ adminToken: TOKEN });
    await seed(app);
    for (const path of [
      '/api/endpoints',
      '/api/endpoints/w',
      '/api/endpoints/w/requests',
      '/api/endpoints/w/requests?wait=0&count=1',
      '/api/health',
      '/api/openapi.json',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect((await app.request(path, { method: 'HEAD' })).status, `HEAD ${path}`).toBe(200);
    }
  });

  it('keeps every method of /endpoint/* open, known name or not', async () => {
    const app = createApp({ adminToken: TOKEN });
    await seed(app);
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const known = await app.request('/endpoint/w', {
        method,
        body: ['GET', 'HEAD'].includes(method) ? undefined : 'x',
      });
      expect(known.status, `${method} known`).toBe(method === 'OPTIONS' ? 204 : 200);
      const unknown = await app.request('/endpoint/nobody', { method });
      expect(unknown.status, `${method} unknown`).toBe(method === 'OPTIONS' ? 204 : 404);
    }
  });
});

describe('constantTimeEqual', () => {
  it('is true for equal strings', () => {
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('tökén-€', 'tökén-€')).toBe(true);
  });

  it('is false for different strings of the same length', () => {
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'xbc')).toBe(false);
    expect(constantTimeEqual('é', 'è')).toBe(false);
  });

  it('is false for different lengths, including prefixes and the empty string', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('a', '')).toBe(false);
    // Repeating the shorter one must not make it match.
    expect(constantTimeEqual('abab', 'ab')).toBe(false);
    expect(constantTimeEqual('aaaa', 'a')).toBe(false);
  });
});
