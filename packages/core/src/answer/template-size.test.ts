/**
 * The size of what templates render: at most the body limit (MOCKPOINT_MAX_BODY_BYTES)
 * per answer, headers, body and a stream's events together. Past it the request
 * is answered 500 TEMPLATE_TOO_LARGE (journaled), rendering stops there (the huge
 * text is never built) and the server goes on; a template that renders too much for
 * any request is refused when it is saved. Through both adapters.
 */
import { closeListeners } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS } from '../test-support/node-adapters.js';

afterEach(closeListeners);

const LIMIT = 256 * 1024;
/** A 60 KB JSON body: `{"text":"xxx…"}`. */
const BODY = JSON.stringify({ text: 'x'.repeat(60_000) });

interface ErrorJson {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

async function putRoutes(app: MockpointApp, routes: unknown[]): Promise<Response> {
  return app.request('/api/endpoints/t/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
}

async function journal(app: MockpointApp): Promise<JournalEntry[]> {
  return ((await (await app.request('/api/endpoints/t/requests')).json()) as { requests: JournalEntry[] }).requests;
}

describe.each(NODE_ADAPTER_NAMES)('templates past the body limit (%s adapter)', (adapter) => {
  async function served(routes: unknown[]) {
    const app = createApp({ maxBodyBytes: LIMIT });
    expect((await putRoutes(app, routes)).status).toBe(200);
    return { app, url: `http://127.0.0.1:${await NODE_ADAPTERS[adapter](app)}/endpoint/t` };
  }

  it('answers 500 TEMPLATE_TOO_LARGE for {{body}} x 1,000 on a 60 KB body, journals it, and serves on', async () => {
    const { app, url } = await served([
      { id: 'echo', match: { path: '/echo' }, answer: { template: true, body: '{{body}}'.repeat(1000) } },
      { id: 'ok', match: { path: '/ok' }, answer: { template: true, body: 'fine {{body.n}}' } },
    ]);
    const response = await fetch(`${url}/echo`, { method: 'POST', body: BODY });
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as ErrorJson;
    expect(error.code).toBe('TEMPLATE_TOO_LARGE');
    expect(error.message).toContain('route echo of "t"');
    expect(error.message).toContain(`${LIMIT} bytes`);
    expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    expect(error.details).toMatchObject({ route: 'echo', limit: LIMIT });
    const ok = await fetch(`${url}/ok`, { method: 'POST', body: '{"n":7}' });
    expect([ok.status, await ok.text()]).toEqual([200, 'fine 7']);
    const entries = await journal(app);
    expect(entries[0]).toMatchObject({ statusCode: 500, answeredBy: { route: 'echo' } });
  });

  it('bounds a templated JSON answer, its headers and a stream (all events together) the same way', async () => {
    const { url } = await served([
      { id: 'json', match: { path: '/json' }, answer: { template: true, data: Array(100).fill('{{body}}') } },
      {
        id: 'header',
        match: { path: '/header' },
        answer: { template: true, headers: { 'x-echo': '{{body.text}}'.repeat(10) }, body: 'h' },
      },
      {
        id: 'stream',
        match: { path: '/stream' },
        answer: {
          template: true,
          stream: { format: 'ndjson', events: Array.from({ length: 100 }, () => ({ data: '{{body}}' })) },
        },
      },
    ]);
    for (const route of ['json', 'header', 'stream']) {
      const response = await fetch(`${url}/${route}`, { method: 'POST', body: BODY });
      expect(response.status, route).toBe(500);
      expect(((await response.json()) as ErrorJson).error.code, route).toBe('TEMPLATE_TOO_LARGE');
    }
  });

  it('bounds a templated queued answer', async () => {
    const { app, url } = await served([]);
    const queued = await app.request('/api/endpoints/t/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ template: true, body: '{{body}}'.repeat(1000) }] }),
    });
    expect(queued.status).toBe(201);
    const response = await fetch(url, { method: 'POST', body: BODY });
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as ErrorJson;
    expect(error.code).toBe('TEMPLATE_TOO_LARGE');
    expect(error.message).toContain('queued answer of "t"');
  });

  it('renders right up to the limit', async () => {
    const { url } = await served([{ answer: { template: true, body: '{{body}}'.repeat(4) } }]);
    const response = await fetch(url, { method: 'POST', body: BODY });
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBe(BODY.length * 4);
  });
});

describe('templates that render too much for any request', () => {
  it('are refused when saved: {{uuid}} renders 36 bytes, {{now}} 24', async () => {
    const app = createApp({ maxBodyBytes: 64 * 1024 });
    // 16 KB of template text that renders at least 72 KB.
    const uuids = '{{uuid}}'.repeat(2000);
    for (const answer of [
      { template: true, body: uuids },
      { template: true, data: { id: uuids } },
      { template: true, headers: { 'x-ids': uuids } },
      { template: true, stream: { format: 'raw', events: [{ body: uuids }] } },
    ]) {
      const response = await putRoutes(app, [{ answer }]);
      expect(response.status, JSON.stringify(answer).slice(0, 60)).toBe(413);
      const { error } = (await response.json()) as ErrorJson;
      expect(error.code).toBe('BODY_TOO_LARGE');
      expect(error.message).toMatch(/renders at least 720\d\d bytes/);
      expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    }
    // The same text without template: true is literal, and fits.
    expect((await putRoutes(app, [{ answer: { body: uuids } }])).status).toBe(200);
  });
});
