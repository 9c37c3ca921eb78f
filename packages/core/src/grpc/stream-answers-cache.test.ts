// What the answer logic keeps across calls: schema mode's answer to a request (not a large one's),
// a route's unchanged messages (not a templated reply's, made per call).
import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { compileProtos } from './compile-protos.js';
import { DirectContext } from './direct-context.js';
import type { GrpcReply } from './grpc-reply.js';
import { stableMessage, unary } from './stream-answers.js';

const CHAT = `syntax = "proto3";
package cache.v1;
service Chat { rpc Get(Ask) returns (Say); }
message Ask { string text = 1; }
message Say { string text = 1; int32 n = 2; }
`;

async function getMethod() {
  const registry = await compileProtos({ 'cache.proto': CHAT });
  const method = registry.getService('cache.v1.Chat')?.methods[0];
  if (method === undefined) throw new Error('no method');
  return method;
}

const parts = (reply?: GrpcReply) => ({
  call: undefined,
  routing: reply === undefined ? undefined : () => Promise.resolve(reply),
  maxHeldBytes: 1 << 20,
});

describe('schema mode keeps its answer to a request, within 4 KiB of seed', () => {
  it('a small request: the same message object each call, its encoding kept', async () => {
    const method = await getMethod();
    const ask = () => create(method.input, { text: 'hi' });
    const a = await unary(method, ask(), new DirectContext([]), parts());
    const b = await unary(method, ask(), new DirectContext([]), parts());
    expect(b).toBe(a);
    expect(stableMessage(a)).toBe(true);
  });

  it('a request past 4 KiB of seed: made per call (the same content), nothing kept', async () => {
    const method = await getMethod();
    const ask = () => create(method.input, { text: 'x'.repeat(5000) });
    const a = await unary(method, ask(), new DirectContext([]), parts());
    const b = await unary(method, ask(), new DirectContext([]), parts());
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
    expect(stableMessage(a)).toBe(false);
  });
});

describe('a route’s messages: kept when unchanged, not when rendered from a template', () => {
  it('an untemplated reply’s message is converted once and its encoding kept; a templated one’s is not', async () => {
    const method = await getMethod();
    const ask = create(method.input, { text: 'hi' });
    const plain: GrpcReply = { by: 'route r1', messages: [{ message: { text: 'same' } }] };
    const a = await unary(method, ask, new DirectContext([]), parts(plain));
    expect(await unary(method, ask, new DirectContext([]), parts(plain))).toBe(a);
    expect(stableMessage(a)).toBe(true);
    const rendered: GrpcReply = { by: 'route r2', templated: true, messages: [{ message: { text: 'hi' } }] };
    expect(stableMessage(await unary(method, ask, new DirectContext([]), parts(rendered)))).toBe(false);
  });
});
