// The daemon as each runtime serves it, run in both projects: `server` (Node, node:http) and
// `server-bun` (`bun dist/cli.js`, Bun.serve; see docs/runtimes.md). Which server answers,
// the page and a hashed asset byte for byte, a queued reset that breaks the connection
// before any status line, and a WebSocket upgrade on a `--serve` port.

import { readdir, readFile, realpath } from 'node:fs/promises';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addEndpoint, ON_BUN, requestJson, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const STATIC_DIR = fileURLToPath(new URL('../dist/web/static/', import.meta.url));

/**
 * Sends `head` on a new connection; what came back before the close (or, with `headOnly`, the
 * answer's head, the connection then closed by this side), and how it ended.
 */
function raw(port: number, head: string, headOnly = false): Promise<{ text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    let error: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (headOnly && text.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.on('close', () => resolve({ text, error }));
  });
}

describe(`the daemon on ${ON_BUN ? 'Bun (Bun.serve)' : 'Node (node:http)'}`, () => {
  // One daemon for the tests that need no --serve port.
  const shared = sharedDaemon({ args: ['--memory'] });

  it('runs on this project’s runtime and answers with that runtime’s own server', async () => {
    const daemon = await shared();
    const exe = await realpath(`/proc/${daemon.child.pid}/exe`);
    expect(exe.split('/').at(-1)).toBe(
      ON_BUN ? 'bun.exe' : await realpath(process.execPath).then((p) => p.split('/').at(-1)),
    );
    const answer = await raw(daemon.port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    // node:http (and Bun's emulation of it) announce their keep-alive timeout; Bun.serve does not.
    if (ON_BUN) expect(answer.text).not.toMatch(/\r\nkeep-alive: timeout=/i);
    else expect(answer.text).toMatch(/\r\nkeep-alive: timeout=/i);
  });

  it('serves the page and a hashed asset byte for byte, the asset cached for a year', async () => {
    const daemon = await shared();
    const page = await fetch(`${daemon.url}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const name = (await readdir(STATIC_DIR)).find((file) => /^app\.[A-Z0-9]+\.js$/.test(file)) as string;
    expect(html).toContain(`static/${name}`);
    const asset = await fetch(`${daemon.url}/static/${name}`, { headers: { 'accept-encoding': 'identity' } });
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await asset.arrayBuffer()).equals(await readFile(`${STATIC_DIR}${name}`))).toBe(true);
    const br = await fetch(`${daemon.url}/static/${name}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(Buffer.from(await br.arrayBuffer()).equals(await readFile(`${STATIC_DIR}${name}`))).toBe(true);
  });

  it('a queued reset breaks the connection before any status line; the next request is answered', async () => {
    const daemon = await shared();
    await addEndpoint(daemon.url, { name: 'flaky', data: { ok: true } });
    const queued = await requestJson(`${daemon.url}/api/endpoints/flaky/queue`, {
      method: 'POST',
      body: { answers: [{ fault: 'reset' }] },
    });
    expect(queued.status).toBe(201);
    const broken = await raw(daemon.port, 'GET /endpoint/flaky HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(broken).toEqual({ text: '', error: 'ECONNRESET' });
    expect(await requestJson(`${daemon.url}/endpoint/flaky`)).toEqual({ status: 200, body: { ok: true } });
  });

  it('upgrades a WebSocket on a --serve port, the endpoint at its root', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--serve', 'live=0'] });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('live', [
      { match: { path: '/socket' }, answer: { websocket: { onOpen: [{ json: { type: 'ready' } }] } } },
    ]);
    const served = daemon.notes.find((line) => line.startsWith('live served at '))?.slice('live served at '.length);
    expect(served, daemon.startLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const socket = new WebSocket(`${(served as string).replace('http', 'ws')}/socket`);
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(data.toString()));
      socket.once('error', reject);
    });
    socket.terminate();
    expect(first).toBe('{"type":"ready"}');
  });
});
