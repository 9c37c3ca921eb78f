/**
 * A provider is its folder (docs/twins.md): a throw-away third provider, written by the test as a
 * folder of its own (helpers/folder-provider.ts) with a signature scheme and a rate-limit style
 * that no built-in list has, is taken by the daemon without a file outside the folder changed.
 * Its twin answers with the headers of its rate-limit style; the events of its notes reach a hook signed its way
 * (checked here with node:crypto); a name's signature check reads that scheme, valid for its
 * deliveries and invalid for a tampered one; the API lists the scheme for the page.
 */
import { createHmac } from 'node:crypto';
import type { JournalEntry } from '@mockpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/start-server.js';
import { type FolderProvider, PROVIDER, writeFolderProvider } from './helpers/folder-provider.js';

let provider: FolderProvider;
let server: RunningServer;

beforeAll(async () => {
  provider = writeFolderProvider();
  server = await startServer({ port: 0, host: '127.0.0.1', memory: true, twins: provider.twins });
});

afterAll(async () => {
  await server?.close();
  await provider?.remove();
});

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** The requests the receiver `name` journaled, once `count` have arrived. */
async function received(name: string, count: number): Promise<JournalEntry[]> {
  const { body } = await call(`/api/endpoints/${name}/requests?wait=10000&count=${count}`);
  expect(body.requests.length, JSON.stringify(body.requests)).toBeGreaterThanOrEqual(count);
  return body.requests;
}

describe('a provider of a folder the package does not ship', () => {
  it('registers its scheme and style when its twin is made, and the API lists the scheme', async () => {
    const before = await call('/api/signature-schemes');
    expect(before.body.map((scheme: { name: string }) => scheme.name)).not.toContain(PROVIDER);
    expect((await call('/api/endpoints/notes/twin', { method: 'PUT', body: { provider: PROVIDER } })).status).toBe(200);
    const after = await call('/api/signature-schemes');
    expect(after.body).toContainEqual({
      name: PROVIDER,
      title: 'Quill-Signature (HMAC-SHA512)',
      timed: true,
      settings: false,
    });
    expect((await call('/api/twins')).body).toEqual({ providers: [PROVIDER] });
  });

  it('answers in its own rate-limit style', async () => {
    await call('/api/endpoints/quota/twin', { method: 'PUT', body: { provider: PROVIDER } });
    const token = { authorization: 'Bearer quota' };
    const lefts: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call('/endpoint/quota/v1/notes', { headers: token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('quill-quota-limit')).toBe('3');
      lefts.push(answer.headers.get('quill-quota-left'));
    }
    expect(lefts).toEqual(['2', '1', '0']);
    const refused = await call('/endpoint/quota/v1/notes', { headers: token });
    // Refused as the twin refuses (its profile's error shape), with the style's headers.
    expect(refused.status).toBe(429);
    expect(refused.headers.get('quill-quota-left')).toBe('0');
    expect(refused.body.message).toMatch(/^API rate limit exceeded for this token: 3 requests per 1h/);
  });

  it("signs its events its way, and a name's signature check reads that scheme", async () => {
    const secret = 'quill-hook-secret';
    await call('/api/endpoint/add', { method: 'PUT', body: { name: 'inbox', data: { ok: true } } });
    const check = await call('/api/endpoints/inbox/signature', {
      method: 'PUT',
      body: { scheme: PROVIDER, secret, enforce: true },
    });
    expect(check.status).toBe(200);
    const hook = await call('/endpoint/notes/v1/hooks', {
      method: 'POST',
      headers: { authorization: 'Bearer hooks' },
      body: { url: `${server.url}/endpoint/inbox`, secret },
    });
    expect(hook.status).toBe(201);
    const note = await call('/endpoint/notes/v1/notes', {
      method: 'POST',
      headers: { authorization: 'Bearer hooks' },
      body: { text: 'hello' },
    });
    expect(note.status).toBe(201);

    const [event] = await received('inbox', 1);
    const headers = event?.headers as Record<string, string>;
    expect(headers['quill-event-type']).toBe('note.created');
    expect(headers['quill-event-id']).toMatch(/^qevt_/);
    // Signed its way: HMAC-SHA512 over "t:" and the body, in base64, as node:crypto computes it.
    const [, t, s] = /^t=(\d+),s=(.+)$/.exec(headers['quill-signature'] ?? '') ?? [];
    const body = event?.body as string;
    expect(s).toBe(createHmac('sha512', secret).update(`${t}:`).update(body).digest('base64'));
    expect(JSON.parse(body)).toMatchObject({ type: 'note.created', data: { id: note.body.id, text: 'hello' } });
    expect(event?.signature).toEqual({ scheme: PROVIDER, status: 'valid', reason: 'signature matches' });
  });

  it('signs a delivery of the API in that scheme, and a tampered one is refused by the check', async () => {
    const secret = 'quill-delivery-secret';
    await call('/api/endpoint/add', { method: 'PUT', body: { name: 'strict', data: { ok: true } } });
    await call('/api/endpoints/strict/signature', { method: 'PUT', body: { scheme: PROVIDER, secret, enforce: true } });
    for (const tamper of [undefined, 'signature', 'stale'] as const) {
      const sent = await call('/api/deliveries', {
        method: 'POST',
        body: {
          url: `${server.url}/endpoint/strict`,
          data: { tamper: tamper ?? 'none' },
          sign: { scheme: PROVIDER, secret },
          ...(tamper === undefined ? {} : { tamper }),
        },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    }
    const requests = await received('strict', 3);
    const marks = Object.fromEntries(
      requests.map((request) => [JSON.parse(request.body as string).tamper, request.signature?.status]),
    );
    expect(marks).toEqual({ none: 'valid', signature: 'invalid', stale: 'stale' });
  });
});
