import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type MockpointApp } from '../../http/create-app.js';
import { answerNoticingHangUp } from './held-answer.js';

const HEARTBEAT_MS = 50;
const apps: MockpointApp[] = [];

function app(): MockpointApp {
  const created = createApp();
  apps.push(created);
  return created;
}

afterEach(() => {
  for (const a of apps.splice(0)) a.mockpoint.journal.releaseWaiters();
});

/** Resolves once `condition` holds (bounded: 10 s at most). */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000 });
}

describe('answerNoticingHangUp (Workers)', () => {
  it('passes every other request through as the app answers it', async () => {
    const a = app();
    await a.request('/api/endpoint/add', {
      method: 'PUT',
      body: JSON.stringify({ name: 'x', data: [1], statusCode: 202 }),
    });
    const response = await answerNoticingHangUp(new Request('http://w/endpoint/x'), a.fetch, HEARTBEAT_MS);
    expect([response.status, await response.text()]).toEqual([202, '[1]']);
  });

  it('answers a long-poll that ends before the first heartbeat as the app does', async () => {
    const a = app();
    const request = new Request('http://w/api/endpoints/x/requests?wait=0');
    // A heartbeat far off: a fresh app's first /api request builds its router, which on a busy machine took
    // longer than 50 ms, and a space came first.
    const response = await answerNoticingHangUp(request, a.fetch, 10_000);
    expect(await response.text()).toBe(`{"requests":[],"complete":false,"journalId":"${a.mockpoint.journal.id}"}`);
  });

  it('answers a held long-poll at once with heartbeat spaces, then the page (valid JSON)', async () => {
    const a = app();
    const request = new Request('http://w/api/endpoints/late/requests?wait=30000');
    const response = await answerNoticingHangUp(request, a.fetch, HEARTBEAT_MS);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The first heartbeat space arrives before anything is recorded, then more while held.
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (text.length < 2) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/^ +$/);
    await a.request('/endpoint/late', { method: 'POST', body: 'hi' });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text).toMatch(/^ {2,}\{/);
    const page = JSON.parse(text) as { complete: boolean; requests: { body: string }[] };
    expect(page.complete).toBe(true);
    expect(page.requests.map((r) => r.body)).toEqual(['hi']);
  });

  it('releases the long-poll when the client cancels the held answer', async () => {
    const a = app();
    const request = new Request('http://w/api/endpoints/gone/requests?wait=30000');
    const response = await answerNoticingHangUp(request, a.fetch, HEARTBEAT_MS);
    expect(a.mockpoint.journal.waitersFor('gone')).toBe(1);
    await response.body?.cancel(new Error('client went away'));
    await until(() => a.mockpoint.journal.waitersFor('gone') === 0);
  });

  it("releases the long-poll when the runtime aborts the request's signal", async () => {
    const a = app();
    const client = new AbortController();
    const request = new Request('http://w/api/endpoints/aborted/requests?wait=30000', { signal: client.signal });
    const pending = answerNoticingHangUp(request, a.fetch, 10_000);
    await until(() => a.mockpoint.journal.waitersFor('aborted') === 1);
    client.abort();
    await until(() => a.mockpoint.journal.waitersFor('aborted') === 0);
    expect((await pending).status).toBe(200);
  });
});
