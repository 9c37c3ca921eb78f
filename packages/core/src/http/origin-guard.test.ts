import { describe, expect, it } from 'vitest';
import { isOriginRule, normalizeOrigin } from '../registry/rules.js';
import { createApp } from './create-app.js';

const BODY = JSON.stringify({ name: 'a', data: { n: 1 } });

async function code(response: Response): Promise<string | undefined> {
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as { error?: { code: string } }).error?.code;
}

describe('normalizeOrigin and isOriginRule', () => {
  it('serialise origins as browsers send them and refuse what is not an http(s) origin', () => {
    expect(normalizeOrigin('HTTP://LocalHost:80')).toBe('http://localhost');
    expect(normalizeOrigin('https://a.test:443')).toBe('https://a.test');
    expect(normalizeOrigin('null')).toBeUndefined();
    expect(normalizeOrigin('file://')).toBeUndefined();
    expect(isOriginRule('http://localhost:3000')).toBe(true);
    expect(isOriginRule('https://app.example.com/')).toBe(true);
    for (const bad of ['localhost:3000', 'http://a.test/path', 'ftp://a.test', '*', 'null', 'http://u@a.test']) {
      expect(isOriginRule(bad), bad).toBe(false);
    }
  });
});

describe('the cross-origin write check in the app', () => {
  const host = '127.0.0.1:16540';

  it('refuses a write from a foreign Origin with 403 CROSS_ORIGIN naming the setting, and nothing changes', async () => {
    const app = createApp();
    const refused = await app.request('http://127.0.0.1:16540/api/endpoint/add', {
      method: 'PUT',
      headers: { host, origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: BODY,
    });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('CROSS_ORIGIN');
    expect(body.error.message).toContain('http://evil.example');
    expect(body.error.message).toContain('MOCKPOINT_ALLOWED_ORIGINS');
    expect((await app.request('http://127.0.0.1:16540/api/endpoints/a', { headers: { host } })).status).toBe(404);
  });

  it('refuses the opaque origin "null" (a sandboxed frame, a file:// page) and another port of the same host', async () => {
    const app = createApp();
    for (const origin of ['null', 'http://127.0.0.1:3000', 'https://127.0.0.1:16540', 'http://localhost:16540']) {
      const answer = await app.request('http://127.0.0.1:16540/api/endpoints', {
        method: 'DELETE',
        headers: { host, origin },
      });
      expect(await code(answer), origin).toBe('CROSS_ORIGIN');
    }
  });

  it('lets the daemon’s own origin, listed origins and requests without Origin write', async () => {
    const app = createApp({ allowedOrigins: ['http://localhost:3000'] });
    const put = (name: string, headers: Record<string, string>) =>
      app.request(`http://127.0.0.1:16540/api/endpoints/${name}`, {
        method: 'PUT',
        headers: { host, ...headers },
        body: '{"data":1}',
      });
    expect((await put('own', { origin: 'http://127.0.0.1:16540' })).status).toBe(201);
    expect((await put('listed', { origin: 'http://localhost:3000' })).status).toBe(201);
    expect((await put('curl', {})).status).toBe(201);
    expect((await put('navigated', { 'sec-fetch-site': 'none' })).status).toBe(201);
    expect((await put('same-origin', { 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    // In-process, without any Host: the app's own URL is the origin.
    expect(
      (await app.request('http://mockpoint.test/api/endpoints/inproc', { method: 'PUT', body: '{"data":1}' })).status,
    ).toBe(201);
  });

  it('behind a proxy, X-Forwarded-Host and -Proto name the origin the page was loaded from', async () => {
    const app = createApp();
    const answer = await app.request('http://127.0.0.1:16540/api/endpoints/p', {
      method: 'PUT',
      headers: {
        host,
        origin: 'https://mocks.test',
        'x-forwarded-host': 'mocks.test',
        'x-forwarded-proto': 'https',
      },
      body: '{"data":1}',
    });
    expect(answer.status).toBe(201);
  });

  it('refuses Sec-Fetch-Site cross-site or same-site without an Origin', async () => {
    const app = createApp();
    for (const site of ['cross-site', 'same-site']) {
      const answer = await app.request('http://127.0.0.1:16540/api/endpoints', {
        method: 'DELETE',
        headers: { host, 'sec-fetch-site': site },
      });
      expect(await code(answer), site).toBe('CROSS_ORIGIN');
    }
  });

  it('does not check reads, nor /endpoint/* whose CORS stays open', async () => {
    const app = createApp();
    const foreign = { host, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await app.request('http://127.0.0.1:16540/api/health', { headers: foreign })).status).toBe(200);
    const hook = await app.request('http://127.0.0.1:16540/endpoint/none', {
      method: 'POST',
      headers: foreign,
      body: '{}',
    });
    expect(hook.status).toBe(404);
    expect(hook.headers.get('access-control-allow-origin')).toBe('*');
  });
});
