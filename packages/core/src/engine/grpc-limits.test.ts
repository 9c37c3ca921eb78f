// The limits of a name's gRPC server (MOCKPOINT_MAX_GRPC_STREAM_MESSAGES and
// MOCKPOINT_MAX_GRPC_MESSAGE_BYTES) hold however the server was first built:
// by a call, or by saving routes or queued answers whose grpc messages are checked.
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import { streamCall } from '../test-support/connect-frames.js';

const CHAT =
  'syntax = "proto3";\npackage chat.v1;\nservice Chat { rpc Get(Ask) returns (Ask); rpc Upload(stream Ask) returns (Ask); }\nmessage Ask { string text = 1; }\n';
const GET = { service: 'chat.v1.Chat', method: 'Get' };

async function chat(app: MockpointApp): Promise<void> {
  const put = await app.request('/api/endpoints/chat/grpc', {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'chat.proto': CHAT } }),
  });
  expect(put.status).toBe(201);
}

const first = {
  'a call': async (_app: MockpointApp) => undefined,
  'saving routes': async (app: MockpointApp) => {
    const body = { routes: [{ match: { grpc: GET }, answer: { grpc: { message: { text: 'x' } } } }] };
    const saved = await app.request('/api/endpoints/chat/routes', { method: 'PUT', body: JSON.stringify(body) });
    expect(saved.status).toBe(200);
  },
  'queuing an answer': async (app: MockpointApp) => {
    const body = { answers: [{ match: { grpc: GET }, grpc: { message: { text: 'x' } } }] };
    const queued = await app.request('/api/endpoints/chat/queue', { method: 'POST', body: JSON.stringify(body) });
    expect(queued.status).toBe(201);
  },
};

describe('a name’s gRPC server limits', () => {
  it.each(Object.entries(first))('hold when the server is first built by %s', async (_by, build) => {
    const app = createApp({ maxGrpcStreamMessages: 2, maxGrpcMessageBytes: 64 });
    await chat(app);
    await build(app);
    const upload = await streamCall(app, '/chat.v1.Chat/Upload', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    expect(upload.end.error).toEqual({
      code: 'resource_exhausted',
      message: 'the call sent more than 2 messages (MOCKPOINT_MAX_GRPC_STREAM_MESSAGES)',
    });
    const big = await streamCall(app, '/chat.v1.Chat/Upload', [{ text: 'x'.repeat(100) }]);
    expect(big.end.error?.code).toBe('resource_exhausted');
  });
});
