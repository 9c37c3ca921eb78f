// The four kinds of call in schema mode, through the app's Fetch path with the
// Connect protocol's streaming framing (enveloped JSON messages, an end-stream
// message with the status), and the journal's messages both ways.
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';

const CHAT = `syntax = "proto3";
package chat.v1;
service Chat {
  rpc Get(Ask) returns (Say);
  rpc Listen(Ask) returns (stream Say);
  rpc Upload(stream Ask) returns (Say);
  rpc Talk(stream Ask) returns (stream Say);
}
message Ask { string text = 1; }
message Say { string text = 1; int32 n = 2; }
`;

/** Connect's streaming body: each message enveloped (flags 0, 4-byte big-endian length, JSON). */
function envelopes(messages: unknown[]): Uint8Array {
  const parts = messages.map((message) => new TextEncoder().encode(JSON.stringify(message)));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + 5 + part.length, 0));
  let at = 0;
  for (const part of parts) {
    new DataView(out.buffer).setUint32(at + 1, part.length);
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  return out;
}

/** The messages of a streaming answer, and its end-stream message (flags 2). */
function unenvelope(bytes: Uint8Array): { messages: unknown[]; end: { error?: { code: string; message?: string } } } {
  const messages: unknown[] = [];
  let end = {};
  let at = 0;
  while (at < bytes.length) {
    const flags = bytes[at] as number;
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 1);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(at + 5, at + 5 + length)));
    if ((flags & 2) !== 0) end = json;
    else messages.push(json);
    at += 5 + length;
  }
  return { messages, end };
}

async function streamCall(app: MockpointApp, path: string, messages: unknown[], headers = {}) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1', ...headers },
    body: envelopes(messages),
  });
  return {
    status: response.status,
    headers: response.headers,
    ...unenvelope(new Uint8Array(await response.arrayBuffer())),
  };
}

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
});
