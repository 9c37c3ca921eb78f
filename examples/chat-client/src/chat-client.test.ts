// The chat client library (src/chat-client.ts) against a scripted mockpoint WebSocket: the
// subprotocol, the join it waits for, lines acknowledged, lines pushed from the test, a
// close with a code, and a dropped connection the client recovers from by joining again.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { beforeEach } from 'vitest';
import { ChatError, connectChat } from './chat-client.js';

const mock = useMockServer();
const chat = () => mock.socket('chat');

beforeEach(async () => {
  // Whatever a test left open is closed first, and the journal starts empty.
  await chat().close();
  await mock.clearRequests('chat');
  await mock.setRoutes('chat', [
    {
      answer: {
        websocket: {
          protocols: ['chat.v1'],
          on: [
            { match: { body: { type: 'join' } }, send: [{ json: { type: 'joined', room: 'lobby' }, delay: 5 }] },
            { match: { body: { type: 'say', text: 'bad word' } }, close: { code: 4001, reason: 'kicked' } },
            { match: { body: { type: 'say', id: 1 } }, send: [{ json: { type: 'ack', id: 1 } }] },
            { match: { body: { type: 'say', id: 2 } }, send: [{ json: { type: 'ack', id: 2 } }] },
          ],
        },
      },
    },
  ]);
});

it('joins with chat.v1 and waits for the server to accept it', async () => {
  const client = await connectChat(chat().url, { user: 'ada' });
  const [join] = await chat().waitForMessages({ match: { body: { type: 'join' } } });
  expect(join?.json).toEqual({ type: 'join', user: 'ada' });
  expect((await chat().connections())[0]?.protocol).toBe('chat.v1');
  client.close();
});

it('says lines and waits for each ack; the mock received them in order', async () => {
  const client = await connectChat(chat().url, { user: 'ada' });
  await client.say('hello');
  await client.say('how are you');
  await expect(chat()).toHaveReceivedMessage({ type: 'say', id: 2, text: 'how are you' });
  const said = await chat().messages({ match: { body: { type: 'say' } } });
  expect(said.map((m) => (m.json as { text: string }).text)).toEqual(['hello', 'how are you']);
  client.close();
});

it('collects lines others say, pushed from the test', async () => {
  const client = await connectChat(chat().url, { user: 'ada' });
  await chat().send({ json: { type: 'message', from: 'bob', text: 'hi ada' } });
  await chat().send({ json: { type: 'message', from: 'eve', text: '👋' } });
  await expect.poll(() => client.lines.length).toBe(2);
  expect(client.lines).toEqual([
    { from: 'bob', text: 'hi ada' },
    { from: 'eve', text: '👋' },
  ]);
  client.close();
});

it('a close with a code is final: the reason is kept, no reconnection', async () => {
  const client = await connectChat(chat().url, { user: 'ada' });
  await expect(client.say('bad word')).rejects.toBeInstanceOf(ChatError);
  expect(await client.closed).toEqual({ code: 4001, reason: 'kicked' });
  expect(client.connections).toBe(1);
});

it('a dropped connection (no close frame) is joined again', async () => {
  const client = await connectChat(chat().url, { user: 'ada' });
  expect(await chat().close({ drop: true })).toBe(1);
  const joins = await chat().waitForMessages({ count: 2, match: { body: { type: 'join' } } });
  expect(joins).toHaveLength(2);
  await expect.poll(() => client.connections).toBe(2);
  await client.say('back again');
  client.close();
});
