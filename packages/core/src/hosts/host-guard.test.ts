import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { hostName, isAllowedHost } from './host-guard.js';

describe('isAllowedHost', () => {
  it('allows IP addresses and localhost, with or without a port', () => {
    for (const host of [
      '127.0.0.1',
      '127.0.0.1:16540',
      '192.168.1.20:80',
      '[::1]',
      '[::1]:16540',
      'localhost',
      'LocalHost:1',
    ]) {
      expect(isAllowedHost(host, []), host).toBe(true);
    }
  });

  it('refuses other names unless listed; .suffix rules allow the name and its subdomains', () => {
    expect(isAllowedHost('evil.example', [])).toBe(false);
    expect(isAllowedHost('localhost.evil.example', [])).toBe(false);
    expect(isAllowedHost('1.2.3.4.evil.example', [])).toBe(false);
    expect(isAllowedHost('Mocks.Internal:8080', ['mocks.internal'])).toBe(true);
    expect(isAllowedHost('mocks.internal.', ['mocks.internal'])).toBe(true);
    expect(isAllowedHost('a.example.com', ['.example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['.example.com'])).toBe(true);
    expect(isAllowedHost('badexample.com', ['.example.com'])).toBe(false);
  });

  it('hostName strips the port, brackets and a trailing dot', () => {
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName('Example.COM.:443')).toBe('example.com');
  });
});

describe('the Host check in the app', () => {
  it('refuses /api with a foreign Host (403 HOST_NOT_ALLOWED), answers /endpoint and Host-less in-process calls', async () => {
    const app = createApp();
    const refused = await app.request('http://x/api/health', { headers: { host: 'evil.example' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('HOST_NOT_ALLOWED');
    expect((await app.request('http://mockpoint.test/api/health')).status).toBe(200);
    expect((await app.request('http://x/endpoint/none', { headers: { host: 'evil.example' } })).status).toBe(404);
    const listed = createApp({ allowedHosts: ['evil.example'] });
    expect((await listed.request('http://x/api/health', { headers: { host: 'evil.example' } })).status).toBe(200);
  });
});
