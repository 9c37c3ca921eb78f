// The four kinds of call in schema mode, through the app's Fetch path with the
// Connect protocol's streaming framing (enveloped JSON messages, an end-stream
// message with the status), and the journal's messages both ways.

import { CHAT_PROTO as CHAT } from '@mockpoint/testkit/grpc-protos';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import { streamCall } from '../test-support/connect-frames.js';

async function chat(): Promise<MockpointApp> {
  const app = createApp();
  const put = await app.request('/api/endpoints/chat/grpc', {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'chat.proto': CHAT } }),
  });
  expect(put.status).toBe(201);
  return app;
}

async function journal(app: MockpointApp) {
  const { requests } = (await (await app.request('/api/endpoints/chat/requests')).json()) as {
    requests: { grpc: Record<string, unknown> }[];
  };
  return requests.map((entry) => entry.grpc);
}

describe('schema mode, every kind of call', () => {
  it('server streaming sends two messages of the output type, the same for the same request', async () => {
    const app = await chat();
    const first = await streamCall(app, '/chat.v1.Chat/Listen', [{ text: 'hi' }]);
    expect(first.status).toBe(200);
    expect(first.messages).toHaveLength(2);
    for (const message of first.messages) expect(Object.keys(message as object).sort()).toEqual(['n', 'text']);
    expect(first.messages[0]).not.toEqual(first.messages[1]);
    expect(first.end).toEqual({});
    expect((await streamCall(app, '/chat.v1.Chat/Listen', [{ text: 'hi' }])).messages).toEqual(first.messages);
    expect((await streamCall(app, '/chat.v1.Chat/Listen', [{ text: 'ho' }])).messages).not.toEqual(first.messages);
  });

  it('client streaming reads the whole stream, then answers one message', async () => {
    const app = await chat();
    const answer = await streamCall(app, '/chat.v1.Chat/Upload', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    expect(answer.messages).toHaveLength(1);
    expect(
      (await streamCall(app, '/chat.v1.Chat/Upload', [{ text: 'a' }, { text: 'b' }, { text: 'c' }])).messages,
    ).toEqual(answer.messages);
    const [entry] = await journal(app);
    expect(entry?.messages).toEqual([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    expect(entry?.responses).toEqual(answer.messages);
  });

  it('bidirectional streaming answers one message per message received', async () => {
    const app = await chat();
    const answer = await streamCall(app, '/chat.v1.Chat/Talk', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    expect(answer.messages).toHaveLength(3);
    expect(answer.end).toEqual({});
  });

  it('journals every message both ways and the status, once the stream has ended', async () => {
    const app = await chat();
    const listened = await streamCall(app, '/chat.v1.Chat/Listen', [{ text: 'hi' }]);
    expect(await journal(app)).toEqual([
      {
        service: 'chat.v1.Chat',
        method: 'Listen',
        protocol: 'connect',
        code: 'ok',
        message: { text: 'hi' },
        messages: [{ text: 'hi' }],
        responses: listened.messages,
      },
    ]);
  });

  it('bounds the journal: 100 messages each way are kept, the rest counted', async () => {
    const app = await chat();
    const many = Array.from({ length: 120 }, (_, i) => ({ text: String(i) }));
    const answer = await streamCall(app, '/chat.v1.Chat/Talk', many);
    expect(answer.messages).toHaveLength(120);
    const [entry] = await journal(app);
    expect(entry?.messages).toHaveLength(100);
    expect(entry?.responses).toHaveLength(100);
    expect(entry?.messagesDropped).toBe(40);
  });

  it('keeps a first message past the journal’s bound out of the entry: no message, counted as dropped', async () => {
    const app = await chat();
    const big = { text: 'x'.repeat(70 * 1024) };
    expect((await streamCall(app, '/chat.v1.Chat/Upload', [big, { text: 'small' }])).status).toBe(200);
    const [entry] = await journal(app);
    expect(entry?.message).toBeUndefined();
    expect(entry?.messages).toEqual([{ text: 'small' }]);
    expect(entry?.messagesDropped).toBe(1);
    expect(JSON.stringify(entry).length).toBeLessThan(64 * 1024);
  });
});
