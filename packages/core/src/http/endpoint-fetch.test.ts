// The app's fetchEndpoint (what Bun's adapter hands `/endpoint/…` to): what it asks of the
// request. A server request's body stream and abort signal are made by the runtime when first
// asked for (Bun: per request, docs/performance.md "The daemon on Bun"), so an answer that needs
// neither must not ask.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signatureStep } from '../engine/pipeline/signature-step.js';
import { twinStep } from '../engine/pipeline/twin-step.js';
import { createApp, type MockpointApp } from './create-app.js';

/** How often `request`'s body stream and signal are asked for, counted from now on. */
function countAsks(request: Request): { body: number; signal: number } {
  const asked = { body: 0, signal: 0 };
  for (const key of ['body', 'signal'] as const) {
    const read = Object.getOwnPropertyDescriptor(Request.prototype, key)?.get;
    Object.defineProperty(request, key, {
      get() {
        asked[key]++;
        return read?.call(request);
      },
    });
  }
  return asked;
}

async function appWith(...endpoints: Array<{ name: string; data: unknown; statusCode?: number; delay?: number }>) {
  const app = createApp();
  for (const endpoint of endpoints) {
    const added = await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify(endpoint) });
    expect(added.status).toBe(201);
  }
  return app;
}

async function journal(app: MockpointApp, name: string) {
  const page = (await (await app.request(`/api/endpoints/${name}/requests`)).json()) as {
    requests: Array<{
      method: string;
      body: string;
      bodyTruncated: boolean;
      statusCode: number;
      json?: unknown;
      answeredBy?: unknown;
    }>;
  };
  return page.requests;
}

describe('fetchEndpoint: what an answer asks of the request', () => {
  it('answers a cached GET without making its body stream or its signal, and journals it', async () => {
    const app = await appWith({ name: 'plain', data: { ok: 1 }, statusCode: 201 });
    // The first request reads the store; the second is the cached one.
    await app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/plain'), 'plain', undefined);
    const request = new Request('http://localhost/endpoint/plain');
    const asked = countAsks(request);
    const response = app.mockpoint.fetchEndpoint(request, 'plain', undefined);
    expect(response).toBeInstanceOf(Response);
    expect(asked).toEqual({ body: 0, signal: 0 });
    const answered = response as Response;
    expect(answered.status).toBe(201);
    expect(await answered.text()).toBe('{"ok":1}');
    expect((await journal(app, 'plain')).map((entry) => entry.statusCode)).toEqual([201, 201]);
  });

  it('reads a body of a declared length whole, without making its body stream, and journals it', async () => {
    const app = await appWith({ name: 'hook', data: { received: true } });
    const sent = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' });
    const request = new Request('http://localhost/endpoint/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(sent)) },
      body: sent,
    });
    const asked = countAsks(request);
    const response = await app.mockpoint.fetchEndpoint(request, 'hook', undefined);
    expect(asked.body).toBe(0);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"received":true}');
    const [entry] = await journal(app, 'hook');
    expect(entry).toMatchObject({ method: 'POST', body: sent, bodyTruncated: false, json: JSON.parse(sent) });
  });

  it('still gives a delayed answer the signal, so that a client that leaves gets 499 at once', async () => {
    const app = await appWith({ name: 'slow', data: { ok: true }, delay: 60_000 });
    const client = new AbortController();
    client.abort();
    // The first request reads the store; the second is the cached one.
    await app.mockpoint.fetchEndpoint(
      new Request('http://localhost/endpoint/slow', { signal: client.signal }),
      'slow',
      undefined,
    );
    const request = new Request('http://localhost/endpoint/slow', { signal: client.signal });
    const asked = countAsks(request);
    const response = await app.mockpoint.fetchEndpoint(request, 'slow', undefined);
    expect(asked.signal).toBeGreaterThan(0);
    expect(response.status).toBe(499);
  });
});

describe('fetchEndpoint: a cached plain record', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is answered without walking the pipeline, and journaled as its walk would', async () => {
    const app = await appWith({ name: 'plain', data: { ok: 1 }, statusCode: 201 });
    await app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/plain'), 'plain', undefined);
    const walked = [vi.spyOn(signatureStep, 'run'), vi.spyOn(twinStep, 'run')];
    const get = app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/plain?x=1'), 'plain', undefined);
    const head = app.mockpoint.fetchEndpoint(
      new Request('http://localhost/endpoint/plain', { method: 'HEAD' }),
      'plain',
      undefined,
    );
    expect(walked.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
    expect([(get as Response).status, await (get as Response).text()]).toEqual([201, '{"ok":1}']);
    expect([(head as Response).status, (head as Response).headers.get('content-length')]).toEqual([201, '8']);
    const entries = await journal(app, 'plain');
    expect(entries.map((entry) => [entry.method, entry.statusCode])).toEqual([
      ['GET', 201],
      ['GET', 201],
      ['HEAD', 201],
    ]);
    expect(entries[1]).toMatchObject({ answeredBy: 'record', path: '/endpoint/plain', query: { x: '1' } });
  });

  it('walks the pipeline where a step looks at the request: a subpath, a queued answer', async () => {
    const app = await appWith({ name: 'busy', data: { ok: 1 } });
    await app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/busy'), 'busy', undefined);
    const queued = await app.request('/api/endpoints/busy/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ statusCode: 503, data: { queued: true } }] }),
    });
    expect(queued.status).toBe(201);
    const walked = vi.spyOn(signatureStep, 'run');
    const first = await app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/busy'), 'busy', undefined);
    expect([first.status, await first.json()]).toEqual([503, { queued: true }]);
    const next = await app.mockpoint.fetchEndpoint(
      new Request('http://localhost/endpoint/busy/below'),
      'busy',
      undefined,
    );
    expect(next.status).toBe(404);
    expect(walked).toHaveBeenCalledTimes(2);
  });
});
