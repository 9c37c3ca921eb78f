/**
 * How much of a request body past the journal's copy (64 KiB) is read and kept:
 * all of it (up to the body limit) where the answer needs it — a route matching
 * the body, a template reading it, a signature check, a proxy, validation, a
 * queued answer — and none beyond the journal's copy for a plain record answer,
 * also for a name not yet known in this process. Through both Node adapters.
 */
import { closeListeners } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS } from '../test-support/node-adapters.js';

afterEach(closeListeners);

/** A JSON body of about `size` bytes: `{"kind":"big","text":"zzz…"}`. */
function bigJson(size: number): string {
  return JSON.stringify({ kind: 'big', text: 'z'.repeat(size - 28) });
}

interface ErrorJson {
  error: { code: string; message: string; details?: { nearMisses?: { id: string; reason: string }[] } };
}

async function journal(app: MockpointApp, name: string): Promise<JournalEntry[]> {
  const response = await app.request(`/api/endpoints/${name}/requests`);
  return ((await response.json()) as { requests: JournalEntry[] }).requests;
}

describe.each(NODE_ADAPTER_NAMES)('bodies past 64 KiB (%s adapter)', (adapter) => {
  async function served(options: { maxBodyBytes?: number } = {}) {
    const app = createApp(options);
    const url = `http://127.0.0.1:${await NODE_ADAPTERS[adapter](app)}`;
    return { app, url };
  }

  async function putRoutes(app: MockpointApp, name: string, routes: unknown[]): Promise<void> {
    const response = await app.request(`/api/endpoints/${name}/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes }),
    });
    expect(response.status).toBe(200);
  }

  it('matches, renders and validates a 66 KB JSON body (a name not requested before)', async () => {
    const { app, url } = await served();
    await putRoutes(app, 'api', [
      { id: 'by-body', match: { path: '/match', body: { kind: 'big' } }, answer: { body: 'matched' } },
      { id: 'field', match: { path: '/field' }, answer: { template: true, body: '{{body.kind}}' } },
      { id: 'echo', match: { path: '/echo' }, answer: { template: true, data: '{{body}}' } },
    ]);
    const body = bigJson(66_000);
    const matched = await fetch(`${url}/endpoint/api/match`, { method: 'POST', body });
    expect([matched.status, await matched.text()]).toEqual([200, 'matched']);
    const field = await fetch(`${url}/endpoint/api/field`, { method: 'POST', body });
    expect(await field.text()).toBe('big');
    const echo = await fetch(`${url}/endpoint/api/echo`, { method: 'POST', body });
    expect(await echo.text()).toBe(body);
    // The journal keeps its first 64 KiB, and says so.
    const [entry] = await journal(app, 'api');
    expect(entry).toMatchObject({ answeredBy: { route: 'by-body' }, bodyTruncated: true });
  });

  it('matches a body in a queued answer', async () => {
    const { app, url } = await served();
    await app.request('/api/endpoints/q', { method: 'PUT', body: '{"data":"record"}' });
    await app.request('/api/endpoints/q/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ match: { body: { kind: 'big' } }, template: true, body: '{{body.kind}}' }] }),
    });
    const response = await fetch(`${url}/endpoint/q`, { method: 'POST', body: bigJson(66_000) });
    expect(await response.text()).toBe('big');
  });

  it('keeps only the journal copy of a body to a record, also for a name not known here yet', async () => {
    const { app, url } = await served();
    await app.request('/api/endpoints/plain', { method: 'PUT', body: '{"data":"record"}' });
    await putRoutes(app, 'needs', [{ match: { body: { kind: 'big' } }, answer: { body: 'matched' } }]);
    const handle = vi.spyOn(app.mockpoint.handler, 'handle');
    const body = bigJson(1024 * 1024);
    const plain = await fetch(`${url}/endpoint/plain`, { method: 'POST', body });
    expect([plain.status, await plain.text()]).toEqual([200, '"record"']);
    const needs = await fetch(`${url}/endpoint/needs`, { method: 'POST', body });
    expect(await needs.text()).toBe('matched');
    const kept = handle.mock.calls.map(([request, whole]) => [request.body.byteLength, whole?.byteLength]);
    expect(kept).toEqual([
      [64 * 1024, undefined],
      [64 * 1024, body.length],
    ]);
  });

  it('refuses a body past the body limit with 413 before any route matches or renders it (#86)', async () => {
    const { app, url } = await served({ maxBodyBytes: 100_000 });
    await putRoutes(app, 'api', [
      { id: 'by-body', match: { path: '/match', body: { kind: 'big' } }, answer: { body: 'matched' } },
      { id: 'field', match: { path: '/field' }, answer: { template: true, body: '{{body.kind}}' } },
    ]);
    const body = bigJson(150_000);
    for (const path of ['/match', '/field']) {
      const refused = await fetch(`${url}/endpoint/api${path}`, { method: 'POST', body });
      expect([path, refused.status]).toEqual([path, 413]);
      const { error } = (await refused.json()) as ErrorJson;
      expect(error.code).toBe('BODY_TOO_LARGE');
      expect(error.message).toContain('100000 bytes');
      expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    }
  });

  it('refuses a body past the body limit to an llm answer (not templated) with 413, never reads it as empty', async () => {
    const { app, url } = await served({ maxBodyBytes: 100_000 });
    await putRoutes(app, 'ai', [
      {
        id: 'chat',
        match: { method: 'POST', path: '/v1/chat/completions' },
        answer: { llm: { provider: 'openai', api: 'chat.completions', text: 'hi' } },
      },
    ]);
    const body = JSON.stringify({
      model: 'm-1',
      stream: true,
      messages: [{ role: 'user', content: 'z'.repeat(150_000) }],
    });
    const refused = await fetch(`${url}/endpoint/ai/v1/chat/completions`, { method: 'POST', body });
    expect(refused.status).toBe(413);
    const { error } = (await refused.json()) as ErrorJson;
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    // Under the limit the same route follows the request: its model, streamed.
    const small = JSON.stringify({ model: 'm-1', stream: true, messages: [{ role: 'user', content: 'hello' }] });
    const answered = await fetch(`${url}/endpoint/ai/v1/chat/completions`, { method: 'POST', body: small });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toContain('text/event-stream');
    expect(await answered.text()).toContain('"model":"m-1"');
  });
});
