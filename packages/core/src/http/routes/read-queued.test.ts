// Queued answers through the Fetch-API app (app.fetch / app.request): what
// Bun, Deno, workerd and in-process clients get. Faults here are the Fetch
// stand-ins; the Node adapter's real socket faults are tested in node/.
import { describe, expect, it } from 'vitest';
import { createApp, type JournalPage, type MockpointApp } from '../../index.js';

async function setup(): Promise<MockpointApp> {
  const app = createApp();
  await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'hook', data: 'abcdefghij' }) });
  return app;
}

async function queue(app: MockpointApp, answers: unknown[]): Promise<void> {
  const response = await app.request('/api/endpoints/hook/queue', {
    method: 'POST',
    body: JSON.stringify({ answers }),
  });
  expect(response.status).toBe(201);
}

async function journal(app: MockpointApp): Promise<JournalPage['requests']> {
  return ((await (await app.request('/api/endpoints/hook/requests')).json()) as JournalPage).requests;
}

/** Reads a body stream until it ends or fails; returns the text read and the failure. */
async function drain(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

describe('queued answers through the Fetch-API app', () => {
  it('answers in order, then the record; HEAD gets no body', async () => {
    const app = await setup();
    await queue(app, [
      { statusCode: 503, times: 2 },
      { data: { ok: 1 }, statusCode: 201 },
    ]);
    const first = await app.request('/endpoint/hook', { method: 'HEAD' });
    expect([first.status, await first.text(), first.headers.get('content-length')]).toEqual([503, '', '12']);
    const second = await app.request('/endpoint/hook', { method: 'POST', body: '{}' });
    expect([second.status, await second.text()]).toEqual([503, '"abcdefghij"']);
    const third = await app.request('/endpoint/hook');
    expect([third.status, await third.text()]).toEqual([201, '{"ok":1}']);
    expect(third.headers.get('access-control-allow-origin')).toBe('*');
    const fourth = await app.request('/endpoint/hook');
    expect([fourth.status, await fourth.text()]).toEqual([200, '"abcdefghij"']);
    expect((await journal(app)).map((r) => r.queued ?? false)).toEqual([true, true, true, false]);
  });

  it('close: the status and headers, half of the body, then a stream error', async () => {
    const app = await setup();
    await queue(app, [{ fault: 'close' }]);
    const response = await app.request('/endpoint/hook');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('12');
    const { text, error } = await drain(response);
    expect(text).toBe('"abcde');
    expect((error as Error).message).toBe('mockpoint: queued fault close');
    expect((await journal(app))[0]).toMatchObject({ statusCode: 200, queued: true, fault: 'close' });
  });

  it('reset: a Fetch handler must send a status line, so the body fails before its first byte', async () => {
    const app = await setup();
    await queue(app, [{ fault: 'reset' }]);
    const response = await app.request('/endpoint/hook');
    const { text, error } = await drain(response);
    expect(text).toBe('');
    expect((error as Error).message).toBe('mockpoint: queued fault reset');
    expect((await journal(app))[0]).toMatchObject({ statusCode: 0, queued: true, fault: 'reset' });
  });

  it('hang: holds the answer until the request is aborted', async () => {
    const app = await setup();
    await queue(app, [{ fault: 'hang' }]);
    const controller = new AbortController();
    const pending = Promise.resolve(app.request('/endpoint/hook', { signal: controller.signal }));
    let settled = false;
    void pending.finally(() => {
      settled = true;
    });
    // Recorded as it takes the hang: once the journal lists it, it is held, not answered.
    const seen = await app.request('/api/endpoints/hook/requests?wait=5000&count=1');
    expect(await seen.json()).toMatchObject({ complete: true, requests: [{ fault: 'hang' }] });
    expect(settled).toBe(false);
    controller.abort();
    expect((await pending).status).toBe(499);
  });

  it('hang: a reset of everything releases it with the answer of that moment (404: no record left)', async () => {
    const app = await setup();
    await queue(app, [{ fault: 'hang' }]);
    const pending = app.request('/endpoint/hook');
    // Journaled means hanging: nothing is awaited between the two.
    await app.request('/api/endpoints/hook/requests?wait=10000');
    await app.request('/api/endpoints', { method: 'DELETE' });
    expect((await pending).status).toBe(404);
  });
});
