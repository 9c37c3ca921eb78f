// Queued answers for gRPC calls on the built daemon, with Connect's own Node
// client: queued grpc answers are taken by the next calls they match, in order
// and once each, before routes and schema mode; an HTTP request never takes
// one, and a call never takes an HTTP answer; over Connect, gRPC-Web and native
// gRPC (HTTP/2 with --https). Every process listens on 127.0.0.1.

import { readFile } from 'node:fs/promises';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { type Daemon, useDaemons } from './helpers/daemon.js';
import { chatDaemon, chatService } from './helpers/grpc.js';

useDaemons();

interface Say {
  text: string;
  n: number;
}

function chatClient(daemon: Daemon, transport = createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' })) {
  return createClient(chatService(), transport) as unknown as {
    get(request: { text?: string }): Promise<Say>;
    listen(request: { text?: string }): AsyncIterable<Say>;
  };
}

async function send(daemon: Daemon, method: string, path: string, body?: unknown) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

describe('queued answers for gRPC calls on the daemon', () => {
  it('answers the next calls in order, once each, then the route; HTTP requests pass them by', async () => {
    const daemon = await chatDaemon({ record: { data: { ok: true } } });
    const route = {
      id: 'get',
      match: { grpc: { service: 'chat.v1.Chat', method: 'Get' } },
      answer: { grpc: { message: { text: 'from the route' } } },
    };
    expect((await send(daemon, 'PUT', '/api/endpoints/chat/routes', { routes: [route] })).status).toBe(200);
    const pushed = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [
        { grpc: { message: { text: 'first', n: 1 } } },
        { match: { grpc: { method: 'Get', message: { text: 'b' } } }, grpc: { message: { text: 'second', n: 2 } } },
      ],
    });
    expect(pushed.status).toBe(201);
    // An HTTP request to the endpoint takes neither.
    const http = await fetch(`${daemon.url}/endpoint/chat`, { method: 'POST', body: '{}' });
    expect([http.status, await http.text()]).toEqual([200, '{"ok":true}']);
    const queued = (await send(daemon, 'GET', '/api/endpoints/chat/queue')).json as { answers: unknown[] };
    expect(queued.answers).toHaveLength(2);

    const client = chatClient(daemon);
    expect(await client.get({ text: 'b' })).toMatchObject({ text: 'first', n: 1 });
    expect(await client.get({ text: 'b' })).toMatchObject({ text: 'second', n: 2 });
    expect(await client.get({ text: 'b' })).toMatchObject({ text: 'from the route' });
    // With no route for Listen, schema mode answers once the queue is empty.
    const listened: Say[] = [];
    for await (const one of client.listen({ text: 'a' })) listened.push(one);
    expect(listened.length).toBeGreaterThan(0);
    expect((await send(daemon, 'GET', '/api/endpoints/chat/queue')).json).toEqual({ answers: [] });

    const journal = (await send(daemon, 'GET', '/api/endpoints/chat/requests')).json as {
      requests: { answeredBy: unknown; queued?: boolean; grpc?: { method: string } }[];
    };
    const calls = journal.requests.filter((entry) => entry.grpc !== undefined);
    expect(calls.map((entry) => [entry.grpc?.method, entry.answeredBy, entry.queued ?? false])).toEqual([
      ['Get', { queue: true }, true],
      ['Get', { queue: true }, true],
      ['Get', { route: 'get' }, false],
      ['Listen', 'grpc', false],
    ]);
  });

  it('ends a call with a queued status; a call leaves an HTTP answer queued; refuses a bad grpc answer', async () => {
    const daemon = await chatDaemon({ record: { data: { ok: true } } });
    const pushed = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [{ statusCode: 503 }, { grpc: { status: { code: 'not_found', message: 'no such chat' } } }],
    });
    expect(pushed.status).toBe(201);
    const client = chatClient(daemon);
    const failed = await client.get({ text: 'a' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectError);
    expect([(failed as ConnectError).code, (failed as ConnectError).rawMessage]).toEqual([
      Code.NotFound,
      'no such chat',
    ]);
    // The schema mode answers the next call; the HTTP answer is still queued, for an HTTP request.
    expect(typeof (await client.get({ text: 'a' })).text).toBe('string');
    expect((await send(daemon, 'GET', '/api/endpoints/chat/queue')).json).toEqual({
      answers: [{ statusCode: 503, times: 1 }],
    });
    expect((await fetch(`${daemon.url}/endpoint/chat`)).status).toBe(503);

    const bad = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [{ grpc: { status: { code: 'nope' } } }],
    });
    expect([bad.status, (bad.json?.error as { code?: string } | undefined)?.code]).toEqual([
      400,
      'INVALID_GRPC_ANSWER',
    ]);
    // Its messages fit the output type of the method its match names, as a route's must.
    const unfit = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [
        { match: { grpc: { service: 'chat.v1.Chat', method: 'Get' } }, grpc: { message: { text: 'x', size: 1 } } },
      ],
    });
    expect([unfit.status, (unfit.json?.error as { message?: string } | undefined)?.message]).toEqual([
      400,
      expect.stringContaining('answers[0]: grpc.message'),
    ]);
    const mixed = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [{ grpc: { message: { text: 'x' } }, statusCode: 200 }],
    });
    expect(mixed.status).toBe(400);
  });

  it('answers a server stream over gRPC-Web and a unary call over native gRPC (HTTP/2, --https)', async () => {
    const daemon = await chatDaemon({ args: ['--memory', '--https', '--https-port', '0'] });
    const pushed = await send(daemon, 'POST', '/api/endpoints/chat/queue', {
      answers: [
        {
          match: { grpc: { method: 'Listen' } },
          grpc: { messages: [{ message: { text: 'a' } }, { message: { text: 'b' }, delay: 10 }] },
        },
        { grpc: { message: { text: 'native', n: 3 } } },
      ],
    });
    expect(pushed.status).toBe(201);
    const web = chatClient(daemon, createGrpcWebTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    const listened: Say[] = [];
    for await (const one of web.listen({ text: 'x' })) listened.push(one);
    expect(listened.map((one) => one.text)).toEqual(['a', 'b']);
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const ca = await readFile(caFile as string, 'utf8');
    const native = chatClient(daemon, createGrpcTransport({ baseUrl: https, nodeOptions: { ca } }));
    expect(await native.get({ text: 'x' })).toMatchObject({ text: 'native', n: 3 });
    expect((await send(daemon, 'GET', '/api/endpoints/chat/queue')).json).toEqual({ answers: [] });
  });
});
