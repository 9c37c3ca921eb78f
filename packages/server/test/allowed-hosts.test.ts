// The admin API and the web page answer only Hosts that are IP addresses,
// localhost or listed in MOCKPOINT_ALLOWED_HOSTS (a DNS-rebinding defence); /endpoint/*
// answers any Host. A real daemon, requests with a chosen Host header.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

function withHost(url: string, host: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MOCKPOINT_ALLOWED_HOSTS', () => {
  it('by default: IP addresses and localhost only for /api and the page; /endpoint answers any Host', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const port = daemon.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`, '10.0.0.7']) {
      expect((await withHost(`${daemon.url}/api/health`, host)).status, host).toBe(200);
    }
    const add = await withHost(
      `${daemon.url}/api/endpoint/add`,
      `evil.example:${port}`,
      'PUT',
      '{"name":"x","data":1}',
    );
    expect(add.status).toBe(403);
    expect(JSON.parse(add.text).error.code).toBe('HOST_NOT_ALLOWED');
    expect(JSON.parse(add.text).error.message).toMatch(/MOCKPOINT_ALLOWED_HOSTS/);
    expect((await withHost(`${daemon.url}/api/endpoints`, 'evil.example')).status).toBe(403);
    expect((await withHost(`${daemon.url}/`, 'evil.example')).status).toBe(403);
    expect((await withHost(`${daemon.url}/api/endpoints/x`, 'localhost')).status).toBe(404); // nothing was added
    // The public endpoints answer whatever name they are reached by.
    expect((await withHost(`${daemon.url}/api/endpoint/add`, 'localhost', 'PUT', '{"name":"x","data":1}')).status).toBe(
      201,
    );
    expect(await withHost(`${daemon.url}/endpoint/x`, 'evil.example')).toEqual({ status: 200, text: '1' });
    expect((await withHost(`${daemon.url}/endpoint/x`, 'evil.example', 'POST', 'hook')).status).toBe(200);
  });

  it('names listed (and .suffix rules) are answered too', async () => {
    const daemon = await startDaemon({
      args: ['--memory'],
      env: { MOCKPOINT_ALLOWED_HOSTS: 'mocks.internal, .example.com' },
    });
    for (const host of ['mocks.internal', 'MOCKS.internal:8080', 'example.com', 'a.b.example.com.']) {
      expect((await withHost(`${daemon.url}/api/health`, host)).status, host).toBe(200);
    }
    for (const host of ['other.internal', 'notexample.com', 'mocks.internal.evil']) {
      expect((await withHost(`${daemon.url}/api/health`, host)).status, host).toBe(403);
    }
  });

  it('a bad name stops start-up with one line naming the setting', async () => {
    const run = await runCli({ args: ['--memory'], env: { MOCKPOINT_ALLOWED_HOSTS: 'ok.example, bad host' } });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(
      /^mockpoint: error: MOCKPOINT_ALLOWED_HOSTS: "bad host" is not a host rule: give a name/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
