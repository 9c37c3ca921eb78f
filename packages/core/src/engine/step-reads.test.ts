import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeListener } from '../adapter/node/listener.js';
import { emptyAnswer } from '../answer/endpoint-answer.js';
import { createApp, type MockpointApp } from '../index.js';
import { recordedRequest } from '../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import { EndpointHandler, PIPELINE } from './endpoint-handler.js';
import { recordStep } from './pipeline/record-step.js';
import type { BodyReads, Maybe, Step } from './pipeline/step.js';

/**
 * A throw-away step, unknown to the handler: it declares what it reads and
 * answers with how many bytes of the body reached it.
 */
function probe(reads: () => Maybe<BodyReads>): Step {
  return {
    name: 'probe',
    reads,
    run: (exchange) => {
      const bytes = (exchange.wholeBody ?? exchange.request.body).byteLength;
      return { answer: emptyAnswer(200, { 'x-bytes-seen': String(bytes) }) };
    },
  };
}

/** The pipeline with `step` just before the record's, as a new kind of answer would sit. */
function withStep(step: Step): Step[] {
  const steps = [...PIPELINE];
  steps.splice(steps.indexOf(recordStep), 0, step);
  return steps;
}

function handlerOf(app: MockpointApp, steps?: readonly Step[]): EndpointHandler {
  const { endpoints, journal, backend } = app.mockpoint;
  return new EndpointHandler({ endpoints, journal, replays: backend.replays, steps });
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** Serves `app` through the Node adapter, its endpoints answered by `handler`. */
async function serve(app: MockpointApp, handler: EndpointHandler): Promise<string> {
  const services = Object.create(app.mockpoint, { handler: { value: handler } }) as MockpointApp['mockpoint'];
  const view = Object.defineProperty(Object.create(app) as MockpointApp, 'mockpoint', { value: services });
  const server = createServer(createNodeListener(view, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** POSTs `bytes` zero bytes to `url` and gives the probe's count. */
function post(url: string, bytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-bytes-seen'] as string | undefined));
    });
    req.on('error', reject);
    req.end(Buffer.alloc(bytes));
  });
}

describe('what the steps read of a body', () => {
  it('a plain name: no step of the pipeline reads its body whole', async () => {
    const app = createApp();
    expect(await handlerOf(app).readsWholeBody('plain')).toBe(false);
  });

  it("each of the pipeline's own steps says so for its name's settings, looked up and then known", async () => {
    const app = createApp();
    const put = async (path: string, body: unknown, method = 'PUT') => {
      const response = await app.request(`/api/endpoints/${path}`, { method, body: JSON.stringify(body) });
      expect(response.status).toBeLessThan(300);
    };
    await put('plain', { data: { ok: true } });
    await put('signed', { data: { ok: true } });
    await put('signed/signature', { scheme: 'standard', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    await put('queued/queue', { answers: [{ body: 'once' }] }, 'POST');
    await put('matched/routes', { routes: [{ id: 'big', match: { body: { kind: 'big' } }, answer: { data: {} } }] });
    await put('pathed/routes', { routes: [{ id: 'p', match: { path: '/p' }, answer: { data: {} } }] });
    await put('schema/graphql', { schema: 'type Query { ping: String }' });
    const document = { openapi: '3.0.3', info: { title: 'Notes', version: '1' }, paths: { '/notes': { post: {} } } };
    await put('twin/twin', { document, profile: { name: 'notes' } });
    const expected = {
      plain: false,
      pathed: false,
      signed: true,
      queued: true,
      matched: true,
      schema: true,
      twin: true,
    };
    const { handler } = app.mockpoint;
    for (const [name, whole] of Object.entries(expected)) {
      expect([name, await handler.readsWholeBody(name)]).toEqual([name, whole]);
      // Asked again, once this process knows the settings: now, without a lookup.
      expect([name, handler.readsWholeBody(name)]).toEqual([name, whole]);
    }
  });

  it("a call is read whole only for a step that reads its bytes: a signature check, not the queue's nor the routes' body matches", async () => {
    const app = createApp();
    const put = async (path: string, body: unknown, method = 'PUT') => {
      const response = await app.request(`/api/endpoints/${path}`, { method, body: JSON.stringify(body) });
      expect(response.status).toBeLessThan(300);
    };
    await put('signed', { data: { ok: true } });
    await put('signed/signature', { scheme: 'standard', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    await put('queued/queue', { answers: [{ match: { body: { text: 'hi' } }, body: 'once' }] }, 'POST');
    const routes = [
      { id: 'http', match: { body: { kind: 'big' } }, answer: { data: {} } },
      { id: 'call', match: { body: { text: 'hi' } }, answer: { grpc: { message: { text: 'routed' } } } },
    ];
    await put('matched/routes', { routes });
    const { handler } = app.mockpoint;
    const reads: Record<string, [boolean, boolean]> = {};
    for (const name of ['signed', 'queued', 'matched']) {
      reads[name] = [await handler.readsWholeBody(name), await handler.callReadsWholeBody(name)];
    }
    // [an HTTP request, a call]
    expect(reads).toEqual({ signed: [true, true], queued: [true, false], matched: [true, false] });
  });

  it('a step that declares the whole body makes readsWholeBody true, without a word in the handler', async () => {
    const app = createApp();
    expect(handlerOf(app, withStep(probe(() => 'whole-body'))).readsWholeBody('plain')).toBe(true);
    // Declared once its settings are looked up: the same.
    expect(
      await handlerOf(app, withStep(probe(async (): Promise<BodyReads> => 'whole-body'))).readsWholeBody('plain'),
    ).toBe(true);
    // A lookup that fails reads nothing more.
    const failing = probe(() => Promise.reject(new Error('store down')));
    expect(await handlerOf(app, withStep(failing)).readsWholeBody('plain')).toBe(false);
    expect(handlerOf(app, withStep(probe(() => 'whole-body'))).readsWholeBody('not a name')).toBe(false);
  });

  it('the Node adapter keeps the whole body for it; the journal still keeps its first bytes', async () => {
    const app = createApp();
    const size = 4 * JOURNAL_BODY_LIMIT + 123;
    const url = await serve(app, handlerOf(app, withStep(probe(() => 'whole-body'))));
    expect(await post(`${url}/endpoint/plain`, size)).toBe(String(size));
    const lookedUp = await serve(app, handlerOf(app, withStep(probe(async (): Promise<BodyReads> => 'whole-body'))));
    expect(await post(`${lookedUp}/endpoint/plain`, size)).toBe(String(size));
    // The same step declaring only the first bytes gets the journal's copy.
    const first = await serve(app, handlerOf(app, withStep(probe(() => 'first-bytes'))));
    expect(await post(`${first}/endpoint/plain`, size)).toBe(String(JOURNAL_BODY_LIMIT));
  });
});

describe('a twin never reads the journal’s first bytes as the body (#86)', () => {
  it('a body longer than the journal keeps, not kept whole, is refused 413 in the twin’s form; nothing is stored', async () => {
    const app = createApp();
    const document = {
      openapi: '3.0.3',
      info: { title: 'Notes', version: '1' },
      paths: { '/notes': { post: { responses: { 201: { description: 'made' } } }, get: {} } },
    };
    const made = await app.request('/api/endpoints/notes/twin', {
      method: 'PUT',
      body: JSON.stringify({ document, profile: { name: 'notes' } }),
    });
    expect(made.status).toBe(200);
    const { handler } = app.mockpoint;
    await handler.readsWholeBody('notes');
    // As an adapter hands a body that outgrew the journal's copy while the name had no twin yet.
    const cut = new TextEncoder().encode(`{"text":"${'x'.repeat(JOURNAL_BODY_LIMIT)}`).subarray(0, JOURNAL_BODY_LIMIT);
    const request = recordedRequest('POST', '/endpoint/notes/notes', ['content-type', 'application/json'], cut, true);
    const answer = await handler.handle(request);
    expect(answer.status).toBe(413);
    const sent = (answer as { body: Uint8Array | string | null }).body;
    const text = typeof sent === 'string' ? sent : new TextDecoder().decode(sent ?? new Uint8Array(0));
    expect(text).toContain('not kept whole');
    const kept = await app.request('/api/endpoints/notes/collections');
    expect(JSON.stringify(await kept.json())).not.toContain('xxxx');
  });
});
