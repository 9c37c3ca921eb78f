// GraphQL over graphql-ws (subprotocol graphql-transport-ws) against the built daemon, with
// the real `graphql-ws` client on the `ws` package: queries and mutations answered as over
// HTTP (the same bytes), subscriptions with their deterministic events from the schema
// (MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS / _INTERVAL_MS), GraphQL errors, routes overriding
// single operations, events pushed through the sockets API, every message in the journal
// (the filter's graphql picks subscribe messages), protocol violations closed with
// graphql-ws's codes, and seeded random code points over the socket never take the daemon
// down. Every process listens on 127.0.0.1.

import { createClient as createApiClient } from '@mockpoint/core';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import type { ExecutionResult } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Daemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const SCHEMA = `
type Query { user(id: ID!): User, version: String! }
type Mutation { rename(id: ID!, name: String!): User! }
type Subscription { starred(repo: String!): Star!, ticks: Int! }
type User { id: ID!, name: String!, friends: [User!]! }
type Star { repo: String!, by: User!, at: DateTime! }
scalar DateTime
`;

const clients: Client[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.dispose();
  for (const socket of sockets.splice(0)) socket.terminate();
});

function wsUrl(daemon: Daemon, name: string): string {
  return `${daemon.url.replace('http', 'ws')}/endpoint/${name}/graphql`;
}

function graphqlClient(daemon: Daemon, name: string): Client {
  const client = createClient({ url: wsUrl(daemon, name), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  clients.push(client);
  return client;
}

/** Every result of one operation, until complete; rejects with what `error` gives. */
function collect(
  client: Client,
  payload: { query: string; variables?: Record<string, unknown>; operationName?: string },
) {
  return new Promise<ExecutionResult[]>((resolve, reject) => {
    const results: ExecutionResult[] = [];
    client.subscribe(payload, {
      next: (result) => results.push(result as ExecutionResult),
      error: reject,
      complete: () => resolve(results),
    });
  });
}

async function startWithSchema(env: Record<string, string> = {}) {
  const daemon = await startDaemon({
    args: ['--memory'],
    env: { MOCKPOINT_GRAPHQL_SUBSCRIPTION_INTERVAL_MS: '10', ...env },
  });
  const api = createApiClient({ baseUrl: daemon.url });
  await api.setGraphqlSchema('gh', SCHEMA);
  return { daemon, api };
}

const USER = 'query GetUser($id: ID!) { user(id: $id) { id name friends { name } } }';
const STARRED = 'subscription OnStar($repo: String!) { starred(repo: $repo) { repo by { name } at } }';

describe('graphql-ws', () => {
  it('answers queries and mutations as over HTTP, and subscriptions with deterministic events, then complete', async () => {
    const { daemon } = await startWithSchema({ MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '3' });
    const client = graphqlClient(daemon, 'gh');

    const overSocket = await collect(client, { query: USER, variables: { id: '7' } });
    const overHttp = await fetch(`${daemon.url}/endpoint/gh/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: USER, variables: { id: '7' } }),
    }).then((response) => response.json());
    expect(overSocket).toEqual([overHttp]);
    expect(overSocket[0]).toMatchObject({ data: { user: { friends: [{}, {}] } } });

    const renamed = await collect(client, {
      query: 'mutation { rename(id: "1", name: "x") { id name } }',
    });
    expect(renamed).toHaveLength(1);
    expect(renamed[0]?.data).toMatchObject({ rename: { id: expect.any(String), name: expect.any(String) } });

    const events = await collect(client, { query: STARRED, variables: { repo: 'a/b' } });
    expect(events).toHaveLength(3);
    for (const event of events) {
      const starred = (event.data as { starred: { repo: string; at: string } }).starred;
      expect(typeof starred.repo).toBe('string');
      expect(starred.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    // Each event its own data; the same subscription again: the same events.
    expect(new Set(events.map((event) => JSON.stringify(event))).size).toBe(3);
    expect(await collect(graphqlClient(daemon, 'gh'), { query: STARRED, variables: { repo: 'a/b' } })).toEqual(events);
  }, 30_000);

  it('answers an invalid operation with error (GraphQL errors with locations), over the same connection', async () => {
    const { daemon } = await startWithSchema();
    const client = graphqlClient(daemon, 'gh');
    const refused = await collect(client, { query: 'subscription { starred { nope } }' }).catch((error) => error);
    expect(Array.isArray(refused)).toBe(true);
    const messages = (refused as Array<{ message: string; locations?: unknown }>).map((one) => one.message);
    expect(messages).toContain('Cannot query field "nope" on type "Star".');
    expect(messages.some((message) => message.includes('argument "repo"'))).toBe(true);
    expect((refused as Array<{ locations?: unknown }>)[0]?.locations).toEqual([
      { line: 1, column: expect.any(Number) },
    ]);
    // The connection stays usable.
    expect(await collect(client, { query: '{ version }' })).toHaveLength(1);
  }, 30_000);

  it('routes override single operations (with templating over variables); the rest from the schema', async () => {
    const { daemon, api } = await startWithSchema({ MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '2' });
    await api.setRoutes('gh', [
      {
        id: 'star',
        match: { graphql: { operationName: 'OnStar' } },
        answer: {
          template: true,
          data: {
            data: { starred: { repo: '{{variables.repo}}', by: { name: 'octocat' }, at: '2020-01-01T00:00:00Z' } },
          },
        },
      },
      {
        id: 'user',
        match: { graphql: { operationName: 'GetUser', variables: { id: '1' } } },
        answer: { data: { data: { user: { id: '1', name: 'Ann', friends: [] } } } },
      },
    ]);
    const client = graphqlClient(daemon, 'gh');
    const star = { data: { starred: { repo: 'x/y', by: { name: 'octocat' }, at: '2020-01-01T00:00:00Z' } } };
    expect(await collect(client, { query: STARRED, variables: { repo: 'x/y' } })).toEqual([star, star]);
    expect(await collect(client, { query: USER, variables: { id: '1' } })).toEqual([
      { data: { user: { id: '1', name: 'Ann', friends: [] } } },
    ]);
    const schemaAnswer = await collect(client, { query: USER, variables: { id: '2' } });
    expect(schemaAnswer[0]?.data).not.toEqual({ user: { id: '1', name: 'Ann', friends: [] } });
    expect(schemaAnswer[0]).toMatchObject({ data: { user: { name: expect.any(String) } } });
  }, 30_000);

  it('pushes events from the API to active subscriptions (by operation name), and completes them', async () => {
    const { daemon, api } = await startWithSchema({ MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '0' });
    const client = graphqlClient(daemon, 'gh');
    const received: ExecutionResult[] = [];
    const ticks: ExecutionResult[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: STARRED, variables: { repo: 'a/b' } },
        { next: (result) => received.push(result as ExecutionResult), error: reject, complete: resolve },
      );
    });
    client.subscribe(
      { query: 'subscription Ticks { ticks }' },
      { next: (r) => ticks.push(r as ExecutionResult), error: () => undefined, complete: () => undefined },
    );
    await api.waitForRequests('gh', {
      count: 2,
      match: { method: 'MESSAGE', graphql: { operationType: 'subscription' } },
    });
    const event = { data: { starred: { repo: 'a/b', by: { name: 'pushed' }, at: '2021-02-03T04:05:06Z' } } };
    expect(await api.pushGraphql('gh', { operationName: 'OnStar', next: event })).toBe(1);
    expect(await api.pushGraphql('gh', { operationName: 'OnStar', complete: true })).toBe(1);
    await done;
    expect(received).toEqual([event]);
    expect(ticks).toEqual([]);
    // None left for OnStar; Ticks still active.
    expect(await api.pushGraphql('gh', { operationName: 'OnStar', complete: true })).toBe(0);
    expect(await api.pushGraphql('gh', { next: { data: { ticks: 1 } } })).toBe(1);
    const bad = await fetch(`${daemon.url}/api/endpoints/gh/sockets/send`, {
      method: 'POST',
      body: JSON.stringify({ next: [1] }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_WEBSOCKET');
    const [socket] = await api.sockets('gh');
    expect(socket).toMatchObject({ route: 'graphql', protocol: 'graphql-transport-ws', subpath: '/graphql' });
  }, 30_000);

  it('journals the upgrade and every message; the filter reads a subscribe message as GraphQL', async () => {
    const { daemon, api } = await startWithSchema({ MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '1' });
    const client = graphqlClient(daemon, 'gh');
    await collect(client, { query: STARRED, variables: { repo: 'j/k' }, operationName: 'OnStar' });
    const [subscribe] = await api.waitForRequests('gh', {
      match: { graphql: { operationName: 'OnStar', variables: { repo: 'j/k' } } },
    });
    expect(subscribe).toMatchObject({
      method: 'MESSAGE',
      websocket: { direction: 'in' },
      answeredBy: 'graphql',
      graphql: { operationName: 'OnStar', operationType: 'subscription', variables: { repo: 'j/k' } },
    });
    const requests = await api.requests('gh');
    const seen = requests.map(
      (entry) =>
        `${entry.method} ${entry.websocket?.direction ?? entry.statusCode} ${(entry.json as { type?: string })?.type ?? ''}`,
    );
    expect(seen.slice(0, 5)).toEqual([
      'GET 101 ',
      'MESSAGE in connection_init',
      'MESSAGE out connection_ack',
      'MESSAGE in subscribe',
      'MESSAGE out next',
    ]);
    expect(seen).toContain('MESSAGE out complete');
    expect(requests.find((entry) => entry.method === 'GET')?.answeredBy).toBe('graphql');
  }, 30_000);

  it('closes a client that breaks the protocol with graphql-ws close codes; ping gets pong', async () => {
    const { daemon } = await startWithSchema();
    const open = async () => {
      const socket = new WebSocket(wsUrl(daemon, 'gh'), 'graphql-transport-ws');
      sockets.push(socket);
      const messages: string[] = [];
      socket.on('message', (data) => messages.push(data.toString()));
      const closed = new Promise<[number, string]>((resolve) =>
        socket.once('close', (code, reason) => resolve([code, reason.toString()])),
      );
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      expect(socket.protocol).toBe('graphql-transport-ws');
      return { socket, messages, closed };
    };
    const early = await open();
    early.socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ version }' } }));
    expect(await early.closed).toEqual([4401, 'Unauthorized']);

    const garbage = await open();
    garbage.socket.send('not json');
    expect(await garbage.closed).toEqual([4400, 'Invalid message received']);

    const twice = await open();
    twice.socket.send('{"type":"connection_init"}');
    twice.socket.send('{"type":"ping","payload":{"n":1}}');
    twice.socket.send('{"type":"connection_init"}');
    expect(await twice.closed).toEqual([4429, 'Too many initialisation requests']);
    expect(twice.messages).toEqual(['{"type":"connection_ack"}', '{"type":"pong","payload":{"n":1}}']);

    const duplicate = await open();
    duplicate.socket.send('{"type":"connection_init"}');
    const slow = { id: 'a', type: 'subscribe', payload: { query: 'subscription { ticks }' } };
    duplicate.socket.send(JSON.stringify(slow));
    duplicate.socket.send(JSON.stringify(slow));
    expect(await duplicate.closed).toEqual([4409, 'Subscriber for a already exists']);

    // Without the subprotocol, an upgrade to a schema-mode name is not graphql-ws: it passes on (404 here).
    const plain = new WebSocket(wsUrl(daemon, 'gh'));
    sockets.push(plain);
    const status = await new Promise<number | undefined>((resolve) => {
      plain.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      plain.once('open', () => resolve(101));
      plain.once('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  }, 30_000);

  it('seeded random code points as messages, ids, documents, variables and API pushes never take the daemon down', async () => {
    const { daemon } = await startWithSchema({ MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '1' });
    const random = prng(0x6a51);
    for (let round = 0; round < 20; round++) {
      const socket = new WebSocket(wsUrl(daemon, 'gh'), 'graphql-transport-ws');
      sockets.push(socket);
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send('{"type":"connection_init"}');
      for (let i = 0; i < 10; i++) {
        const text = randomText(random, Math.floor(random() * 120));
        const pick = random();
        if (pick < 0.3) socket.send(text);
        else if (pick < 0.6) {
          socket.send(JSON.stringify({ id: text.slice(0, 20) || 'x', type: 'subscribe', payload: { query: text } }));
        } else if (pick < 0.8) {
          socket.send(
            JSON.stringify({
              id: `${round}-${i}`,
              type: 'subscribe',
              payload: { query: STARRED, variables: { repo: text }, operationName: random() < 0.5 ? text : 'OnStar' },
            }),
          );
        } else socket.send(JSON.stringify({ type: text, id: text, payload: text }));
      }
      // Pushes from the API with random operation names, ids and result text: answered, never a crash.
      const push = await fetch(`${daemon.url}/api/endpoints/gh/sockets/send`, {
        method: 'POST',
        body: JSON.stringify({
          operationName: randomText(random, 1 + Math.floor(random() * 20)),
          subscription: random() < 0.5 ? `${round}-0` : randomText(random, 1 + Math.floor(random() * 20)),
          next: { data: { starred: { repo: randomText(random, Math.floor(random() * 60)) } } },
        }),
      });
      expect([200, 400]).toContain(push.status);
      socket.close();
      expect(await closed).toBeGreaterThanOrEqual(1000);
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    const client = graphqlClient(daemon, 'gh');
    expect(await collect(client, { query: '{ version }' })).toHaveLength(1);
  }, 60_000);
});
