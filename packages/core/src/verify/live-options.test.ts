// POST /api/verify's upstream refused as it should be: INVALID_VERIFY_UPSTREAM for what is not usable,
// PROXY_HOST_NOT_ALLOWED for a host the allow list does not name (before any request), and the HAR read.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, type VerifyUpstream } from '../index.js';
import { harRequests, replayable } from './live-request.js';

async function refused(upstream: unknown, allow: string[] = ['api.example.com']): Promise<string | undefined> {
  const client = createClient({ baseUrl: 'http://mockpoint.test', app: createApp({ proxyAllowHosts: allow }) });
  await client.setRoutes('a', [{ match: { path: '/x' }, answer: { data: {} } }]);
  const error = await client.verify({ upstream: upstream as VerifyUpstream }).catch((e: { code?: string }) => e);
  return (error as { code?: string }).code;
}

describe('verify upstream options', () => {
  it('refuses what is not usable with INVALID_VERIFY_UPSTREAM', async () => {
    for (const upstream of [
      { url: 'ftp://api.example.com' },
      { url: 'https://api.example.com/v1?key=1' },
      { url: 'https://user:pw@api.example.com' },
      { url: 'not a url' },
      { url: 'https://api.example.com', ignore: [''] },
      { url: 'https://api.example.com', headers: { 'bad name': 'x' } },
      { url: 'https://api.example.com', headers: { host: 'x' } },
      { url: 'https://api.example.com', concurrency: 17 },
      { url: 'https://api.example.com', totalMs: 240_001 },
      { url: 'https://api.example.com', unsafe: 'yes' },
      { url: 'https://api.example.com', other: 1 },
    ]) {
      expect([upstream, await refused(upstream)]).toEqual([upstream, 'INVALID_VERIFY_UPSTREAM']);
    }
  });

  it('refuses a host the allow list does not name, and a private address not listed itself', async () => {
    expect(await refused({ url: 'https://other.example.com' })).toBe('PROXY_HOST_NOT_ALLOWED');
    expect(await refused({ url: 'https://api.example.com' }, [])).toBe('PROXY_HOST_NOT_ALLOWED');
    expect(await refused({ url: 'http://127.0.0.1:9' }, ['.example.com'])).toBe('PROXY_HOST_NOT_ALLOWED');
  });

  it('reads a HAR, skipping malformed entries; drops credential headers', () => {
    const har = {
      log: {
        entries: [
          { request: { method: 'get', url: 'https://a.test/p?q=1', headers: [{ name: 'A', value: 'b' }] } },
          { request: { url: 7 } },
          null,
        ],
      },
    };
    expect(harRequests(har).map((r) => [r.method, r.url.href, r.headers])).toEqual([
      ['GET', 'https://a.test/p?q=1', [['A', 'b']]],
    ]);
    expect(harRequests({})).toEqual([]);
    for (const name of [
      'Authorization',
      'cookie',
      'X-Api-Key',
      'x-auth-token',
      'x-session-id',
      'x-csrf-token',
      'stripe-signature',
      'x-amz-security-token',
      'host',
      'content-length',
    ]) {
      expect([name, replayable(name)]).toEqual([name, false]);
    }
    for (const name of ['accept', 'content-type', 'x-trace', 'user-agent', 'x-request-id'])
      expect([name, replayable(name)]).toEqual([name, true]);
  });
});
