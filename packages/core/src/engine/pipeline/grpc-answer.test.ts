// The grpc answer kind: routes answering gRPC calls (through the app's Fetch path, Connect's JSON
// protocol): the grpc filter, each kind of call, status by name and number
// with details, metadata and trailers, templates, state, the check at save,
// that grpc routes and HTTP requests never meet, and that a call's view is an
// HTTP request's (the signature check's outcome included).

import { CHAT_PROTO as CHAT } from '@mockpoint/testkit/grpc-protos';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { streamCall } from '../../test-support/connect-frames.js';

async function chat(routes: unknown[]): Promise<MockpointApp> {
  const app = createApp();
  const put = await app.request('/api/endpoints/chat/grpc', {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'chat.proto': CHAT } }),
  });
  expect(put.status).toBe(201);
  const saved = await app.request('/api/endpoints/chat/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return app;
}

function unary(app: MockpointApp, method: string, message: unknown, headers: Record<string, string> = {}) {
  return app.request(`/chat.v1.Chat/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'connect-protocol-version': '1', ...headers },
    body: JSON.stringify(message),
  });
}

const GET = { grpc: { service: 'chat.v1.Chat', method: 'Get' } };

describe('routes answering calls', () => {
  it('a unary call gets the message of the first route whose grpc filter holds; others schema mode', async () => {
    const app = await chat([
      {
        id: 'hi',
        match: { grpc: { ...GET.grpc, message: { text: 'hi' } } },
        answer: { grpc: { message: { text: 'hello', n: 1 } } },
      },
      { id: 'meta', match: { ...GET, headers: { 'x-who': 'ann' } }, answer: { grpc: { message: { text: 'ann' } } } },
    ]);
    expect(await (await unary(app, 'Get', { text: 'hi' })).json()).toEqual({ text: 'hello', n: 1 });
    expect(await (await unary(app, 'Get', { text: 'yo' }, { 'x-who': 'ann' })).json()).toEqual({ text: 'ann' });
    const schema = (await (await unary(app, 'Get', { text: 'yo' })).json()) as { text: string };
    expect(schema.text).toMatch(/^[a-z]+ [a-z]+$/);
    const { requests } = (await (await app.request('/api/endpoints/chat/requests')).json()) as {
      requests: { answeredBy: unknown }[];
    };
    expect(requests.map((entry) => entry.answeredBy)).toEqual([{ route: 'hi' }, { route: 'meta' }, 'grpc']);
  });

  it('ends with a status by name or number, with its message, details, metadata and trailers', async () => {
    const app = await chat([
      {
        match: { grpc: { method: 'Get', message: { text: 'gone' } } },
        answer: {
          grpc: {
            status: {
              code: 'NOT_FOUND',
              message: 'no such thing',
              details: [{ type: 'google.rpc.ErrorInfo', value: 'CgNmb28=' }],
            },
            metadata: { 'x-shard': '7' },
            trailers: { 'x-cost': ['1', '2'] },
          },
        },
      },
      { match: { grpc: { method: 'Get' } }, answer: { grpc: { status: { code: 14 } } } },
    ]);
    const gone = await unary(app, 'Get', { text: 'gone' });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('x-shard')).toBe('7');
    expect(gone.headers.get('trailer-x-cost')).toBe('1, 2');
    const body = (await gone.json()) as { code: string; message: string; details: { type: string; value: string }[] };
    expect(body.code).toBe('not_found');
    expect(body.message).toBe('no such thing');
    expect(body.details[0]?.type).toBe('google.rpc.ErrorInfo');
    expect(((await (await unary(app, 'Get', { text: 'x' })).json()) as { code: string }).code).toBe('unavailable');
  });

  it('server streaming sends the messages in order; client streaming sees {{messages}}; bidi plays on', async () => {
    const app = await chat([
      {
        match: { grpc: { method: 'Listen' } },
        answer: {
          grpc: { messages: [{ message: { n: 1 } }, { message: { n: 2 }, delay: 20 }], status: { code: 'aborted' } },
        },
      },
      {
        match: { grpc: { method: 'Upload' } },
        answer: { template: true, grpc: { message: { text: 'got {{messages.1.text}} of {{messages}}' } } },
      },
      {
        match: { grpc: { method: 'Talk' } },
        answer: {
          grpc: {
            on: [
              {
                match: { body: { text: 'ping' } },
                send: [{ message: { text: 'pong' } }, { message: { text: 'pong2' } }],
              },
              { send: [{ message: { text: 'what?' } }] },
            ],
          },
        },
      },
    ]);
    const listened = await streamCall(app, '/chat.v1.Chat/Listen', [{}]);
    expect(listened.messages).toEqual([{ n: 1 }, { n: 2 }]);
    expect(listened.end.error?.code).toBe('aborted');
    const uploaded = await streamCall(app, '/chat.v1.Chat/Upload', [{ text: 'a' }, { text: 'b' }]);
    expect(uploaded.messages).toEqual([{ text: 'got b of [{"text":"a"},{"text":"b"}]' }]);
    const talked = await streamCall(app, '/chat.v1.Chat/Talk', [{ text: 'ping' }, { text: 'huh' }]);
    expect(talked.messages).toEqual([{ text: 'pong' }, { text: 'pong2' }, { text: 'what?' }]);
  });

  it('templates read the first message as {{body}}, and setState moves the state', async () => {
    const app = await chat([
      {
        match: { ...GET, state: 'open' },
        answer: { template: true, grpc: { message: { text: 'second {{body.text}} {{state.default}}' } } },
      },
      { match: GET, answer: { setState: 'open', template: true, grpc: { message: { text: 'first {{body.text}}' } } } },
    ]);
    expect(await (await unary(app, 'Get', { text: 'a' })).json()).toEqual({ text: 'first a' });
    expect(await (await unary(app, 'Get', { text: 'b' })).json()).toEqual({ text: 'second b open' });
  });

  it('refuses at save a message that is no message of the output type, with INVALID_GRPC_ANSWER', async () => {
    const app = await chat([]);
    const bad = async (answer: unknown, match: unknown = GET) => {
      const response = await app.request('/api/endpoints/chat/routes', {
        method: 'PUT',
        body: JSON.stringify({ routes: [{ match, answer }] }),
      });
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      return [response.status, error.code, error.message];
    };
    const [status, code, message] = await bad({ grpc: { message: { nope: 1 } } });
    expect([status, code]).toEqual([400, 'INVALID_GRPC_ANSWER']);
    expect(message).toMatch(/^routes\[0\]: answer\.grpc\.message: no chat\.v1\.Say: /);
    expect((await bad({ grpc: { status: { code: 'broken' } } }))[1]).toBe('INVALID_GRPC_ANSWER');
    expect((await bad({ grpc: { metadata: { 'x-a': 'a\r\nb' } } }))[1]).toBe('INVALID_GRPC_ANSWER');
    expect((await bad({ grpc: { trailers: { 'grpc-status': '0' } } }))[1]).toBe('INVALID_GRPC_ANSWER');
    expect((await bad({ grpc: { status: { code: 5, message: 'a\nb' } } }))[1]).toBe('INVALID_GRPC_ANSWER');
    expect((await bad({ grpc: { message: {} }, fault: 'hang' }))[1]).toBe('INVALID_GRPC_ANSWER');
    expect((await bad({ grpc: { message: {} }, statusCode: 200 }))[1]).toBe('INVALID_ANSWER');
  });

  it('refuses at save a grpc route with validate, which no call is checked by (INVALID_VALIDATION)', async () => {
    const app = await chat([]);
    const validate = { mode: 'enforce', body: { type: 'object' } };
    const route = { match: GET, validate, answer: { grpc: { message: { text: 'hi' } } } };
    const response = await app.request('/api/endpoints/chat/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [route] }),
    });
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect([response.status, error.code]).toEqual([400, 'INVALID_VALIDATION']);
    expect(error.message).toMatch(/^routes\[0\]: validate .* not applied to gRPC calls/);
    // The same validate on an HTTP route is kept.
    const http = { match: { method: 'POST' }, validate, answer: { data: { ok: true } } };
    const kept = await app.request('/api/endpoints/chat/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [http] }),
    });
    expect(kept.status, await kept.clone().text()).toBe(200);
  });

  it("a route's match.signature sees the call's signature outcome, as an HTTP request's", async () => {
    const app = await chat([
      { id: 'unsigned', match: { ...GET, signature: 'missing' }, answer: { grpc: { message: { text: 'unsigned' } } } },
    ]);
    // Before the name checks signatures the call has no outcome: the route does not match, schema mode answers.
    expect(((await (await unary(app, 'Get', { text: 'a' })).json()) as { text: string }).text).not.toBe('unsigned');
    const check = { scheme: 'standard', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
    const put = await app.request('/api/endpoints/chat/signature', { method: 'PUT', body: JSON.stringify(check) });
    expect(put.status, await put.clone().text()).toBeLessThan(300);
    expect(await (await unary(app, 'Get', { text: 'a' })).json()).toEqual({ text: 'unsigned' });
    const { requests } = (await (await app.request('/api/endpoints/chat/requests')).json()) as {
      requests: { answeredBy: unknown; signature?: { status: string } }[];
    };
    expect(requests.map(({ answeredBy, signature }) => [answeredBy, signature?.status])).toEqual([
      ['grpc', undefined],
      [{ route: 'unsigned' }, 'missing'],
    ]);
  });

  it('keeps grpc routes and HTTP requests apart', async () => {
    const app = await chat([{ answer: { grpc: { message: { text: 'call' } } } }, { answer: { data: { http: true } } }]);
    expect(await (await unary(app, 'Get', {})).json()).toEqual({ text: 'call' });
    expect(await (await app.request('/endpoint/chat/anything')).json()).toEqual({ http: true });
  });
});
