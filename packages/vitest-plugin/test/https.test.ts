// createMockServer({ https: true }): HTTPS (HTTP/2 and HTTP/1.1) with a CA made
// for this server, handed to the test's clients as `mock.ca`; and `hosts`, so a
// client that keeps its own Host reaches an endpoint.

import { connect as h2Connect } from 'node:http2';
import { request as h1Request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/create-mock-server.js';

function getH1(
  url: string,
  ca: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    h1Request(url, { ca, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

function getH2(origin: string, path: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = h2Connect(origin, { ca });
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let status = 0;
    let body = '';
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    stream.on('end', () => {
      session.close();
      resolve({ status, body });
    });
    stream.on('error', reject);
  });
}

describe('createMockServer({ https: true })', () => {
  it('serves HTTPS over HTTP/2 and HTTP/1.1 to clients that trust mock.ca, and only to them', async () => {
    await using mock = await createMockServer({ https: true, hosts: { 'api.github.com': 'github' } });
    expect(mock.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const hook = await mock.add({ name: 'hook', data: { ok: true } });
    expect(hook.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/endpoint\/hook$/);
    expect(await getH1(hook.url, mock.ca as string)).toEqual({ status: 200, body: '{"ok":true}' });
    expect(await getH2(new URL(hook.url).origin, '/endpoint/hook', mock.ca as string)).toEqual({
      status: 200,
      body: '{"ok":true}',
    });
    await mock.put('github', { data: { login: 'octocat' } });
    const byHost = await getH1(`${new URL(hook.url).origin}/`, mock.ca as string, { host: 'api.github.com' });
    expect(byHost).toEqual({ status: 200, body: '{"login":"octocat"}' });
    await expect(getH1(hook.url, '')).rejects.toThrow(/self[- ]signed|unable to verify|UNABLE_TO_GET_ISSUER/i);
    expect(await hook.requests()).toHaveLength(2);
  });

  it('stays plain HTTP without it, with no CA', async () => {
    await using mock = await createMockServer();
    expect(mock.ca).toBeUndefined();
    expect((await mock.add({ name: 'a', data: 1 })).url).toMatch(/^http:\/\//);
  });
});
