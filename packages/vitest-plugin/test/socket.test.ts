// mock.socket(name) over a real createMockServer() socket and the `ws` client package:
// connections(), send, close, waitForMessages with the one filter, and toHaveReceivedMessage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMockServer, MockpointError, type MockServer, mockpointMatchers, test } from '../src/index.js';

expect.extend(mockpointMatchers);

/** Opens a client and collects its messages as text. */
async function open(url: string) {
  const socket = new WebSocket(url);
  const received: string[] = [];
  socket.on('message', (data) => received.push(data.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const until = async (count: number) => {
    while (received.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
    return received;
  };
  return { socket, received, closed, until };
}

describe('mock.socket()', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('sends, waits for messages with the filter, lists and closes connections', async () => {
    await mock.api('chat', [
      {
        answer: {
          websocket: {
            onOpen: [{ json: { type: 'hello' } }],
            on: [{ match: { body: { type: 'join' } }, send: [{ json: { type: 'joined' } }] }],
          },
        },
      },
    ]);
    const chat = mock.socket('chat');
    expect(chat.url).toBe(`${mock.url.replace('http', 'ws')}/endpoint/chat`);
    const client = await open(chat.urlFor('/room'));
    client.socket.send(JSON.stringify({ type: 'typing' }));
    client.socket.send(JSON.stringify({ type: 'join', user: 'ada' }));
    const [join] = await chat.waitForMessages({ match: { body: { type: 'join' } } });
    expect(join?.json).toEqual({ type: 'join', user: 'ada' });
    expect(await client.until(2)).toEqual(['{"type":"hello"}', '{"type":"joined"}']);

    const [connection] = await chat.connections();
    expect(connection).toMatchObject({ subpath: '/room', protocol: null, received: 2 });
    expect(await chat.send('plain text')).toBe(1);
    expect(await chat.send({ json: { n: 1 } }, { connection: connection?.id })).toBe(1);
    expect(await client.until(4)).toEqual(['{"type":"hello"}', '{"type":"joined"}', 'plain text', '{"n":1}']);
    const out = await chat.messages({ direction: 'out' });
    expect(out.map((m) => m.body)).toEqual(['{"type":"hello"}', '{"type":"joined"}', 'plain text', '{"n":1}']);

    await expect(chat).toHaveReceivedMessage({ type: 'join' });
    await expect(chat).toHaveReceivedMessage(expect.objectContaining({ user: 'ada' }));
    await expect(chat).not.toHaveReceivedMessage({ type: 'leave' });

    expect(await chat.close({ code: 4002, reason: 'done' })).toBe(1);
    expect(await client.closed).toBe(4002);
    expect(await chat.connections()).toEqual([]);
  });

  it('waitForMessages times out with WAIT_TIMEOUT', async () => {
    const quiet = mock.socket('quiet');
    const error = await quiet.waitForMessages({ timeout: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockpointError);
    expect((error as MockpointError).code).toBe('WAIT_TIMEOUT');
  });
});

test('the file-scoped fixture has socket() too', async ({ mock }) => {
  await mock.api('fx', [{ answer: { websocket: { onOpen: [{ text: 'hi' }] } } }]);
  const client = await open(mock.socket('fx').url);
  expect(await client.until(1)).toEqual(['hi']);
  client.socket.close();
  expect(await client.closed).toBe(1005);
});

describe('mock.socket().push() to graphql-ws subscriptions', () => {
  it('pushes a next and a complete to the subscriptions of one operation', async () => {
    await using mock = await createMockServer({ graphqlSubscriptionEvents: 0 });
    const gh = await mock.api('gh');
    await gh.setGraphqlSchema('type Query { a: Int }\ntype Subscription { starred: String!, ticks: Int! }\n');
    const socket = new WebSocket(`${mock.socket('gh').url}/graphql`, 'graphql-transport-ws');
    const received: string[] = [];
    socket.on('message', (data) => received.push(data.toString()));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send('{"type":"connection_init"}');
    socket.send('{"id":"1","type":"subscribe","payload":{"query":"subscription OnStar { starred }"}}');
    socket.send('{"id":"2","type":"subscribe","payload":{"query":"subscription Ticks { ticks }"}}');
    const handle = mock.socket('gh');
    await handle.waitForMessages({ count: 2, match: { graphql: { operationType: 'subscription' } } });
    expect(await handle.push({ operationName: 'OnStar', next: { data: { starred: 'octocat' } }, complete: true })).toBe(
      1,
    );
    await handle.waitForMessages({ direction: 'out', match: { body: { id: '1', type: 'complete' } } });
    // The journal has the frames once they are written; the client reads them on its own turn of the event loop.
    await expect.poll(() => received.length).toBe(3);
    expect(received).toEqual([
      '{"type":"connection_ack"}',
      '{"id":"1","type":"next","payload":{"data":{"starred":"octocat"}}}',
      '{"id":"1","type":"complete"}',
    ]);
    socket.close();
  });
});
