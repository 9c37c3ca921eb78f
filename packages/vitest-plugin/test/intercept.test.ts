// createMockServer({ intercept }): this process's outgoing requests (the global
// fetch, node:https) to the listed origins are answered by the mock in-process,
// by their host's endpoint, with no socket; other hosts fail when told to (no
// network is ever reached here); close() restores every client.
import http from 'node:http';
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/create-mock-server.js';
import { MockServerError } from '../src/errors.js';

const ROUTES = [
  {
    match: { path: '/repos/:owner/:repo' },
    answer: { data: { full_name: '{{params.owner}}/{{params.repo}}' }, template: true },
  },
];

function httpsGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('intercept', () => {
  it('answers fetch and https.get to an intercepted origin in-process, and restores both on close', async () => {
    const fetchBefore = globalThis.fetch;
    const requestBefore = http.request;
    const mock = await createMockServer({
      hosts: { 'api.github.com': 'github', '*.stripe.com': 'stripe' },
      intercept: ['https://api.github.com', 'https://*.stripe.com'],
      interceptUnmatched: 'error',
    });
    try {
      expect(globalThis.fetch).not.toBe(fetchBefore);
      const github = await mock.api('github', ROUTES);
      const fetched = await fetch('https://api.github.com/repos/a/b?page=2', { headers: { 'user-agent': 'test' } });
      expect([fetched.status, await fetched.json()]).toEqual([200, { full_name: 'a/b' }]);
      expect(await httpsGet('https://api.github.com/repos/c/d')).toEqual({ status: 200, body: '{"full_name":"c/d"}' });
      const requests = await github.requests();
      expect(requests.map((r) => [r.subpath, r.query.page ?? null, r.headers.host])).toEqual([
        ['/repos/a/b', '2', 'api.github.com'],
        ['/repos/c/d', null, 'api.github.com'],
      ]);
      // An intercepted host mapped to no endpoint's record answers as the endpoint would; an unmapped one is refused.
      expect((await fetch('https://files.stripe.com/v1/balance')).status).toBe(404);
      // Not intercepted, with interceptUnmatched 'error': fails before any network.
      const refused = await fetch('https://example.com/').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(MockServerError);
      expect((refused as MockServerError).code).toBe('HOST_NOT_MOCKED');
      await expect(httpsGet('https://example.com/')).rejects.toMatchObject({ code: 'HOST_NOT_MOCKED' });
      // The mock's own URL (loopback) goes through as usual.
      expect((await fetch(`${github.url}/repos/e/f`)).status).toBe(200);
    } finally {
      await mock.close();
    }
    expect(globalThis.fetch).toBe(fetchBefore);
    expect(http.request).toBe(requestBefore);
  });

  it('answers 403 HOST_NOT_MOCKED for an intercepted origin mapped to no endpoint', async () => {
    await using _mock = await createMockServer({ intercept: ['https://api.example.test'] });
    const answer = await fetch('https://api.example.test/x');
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('HOST_NOT_MOCKED');
  });

  it('refuses an entry that is not an origin, and a second intercepting server', async () => {
    await expect(createMockServer({ intercept: ['https://api.github.com/v3'] })).rejects.toMatchObject({
      code: 'INVALID_INTERCEPT',
    });
    await using _first = await createMockServer({ intercept: ['https://a.test'] });
    await expect(createMockServer({ intercept: ['https://b.test'] })).rejects.toMatchObject({
      code: 'INVALID_INTERCEPT',
    });
  });
});
