// The request messages of a native gRPC call answered without Connect's handler: gRPC's 5-byte
// prefix split over chunks however they arrive, and Connect's refusals with its codes.
import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { EnvelopeQueue } from './envelope-queue.js';

/** A message in its envelope: `flags`, the length (big-endian), the bytes. */
function envelope(bytes: number[], flags = 0): Uint8Array {
  const out = new Uint8Array(5 + bytes.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, bytes.length);
  out.set(bytes, 5);
  return out;
}

async function all(queue: EnvelopeQueue): Promise<number[][]> {
  const out: number[][] = [];
  for await (const message of queue) out.push([...message]);
  return out;
}

async function refusal(queue: EnvelopeQueue): Promise<[Code, string]> {
  const error = await all(queue).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return [(error as ConnectError).code, (error as ConnectError).rawMessage];
}

describe('EnvelopeQueue', () => {
  it('reads messages split over chunks anywhere, several in one chunk, and an empty message', async () => {
    const body = new Uint8Array([...envelope([1, 2, 3]), ...envelope([]), ...envelope([4, 5])]);
    const queue = new EnvelopeQueue(100);
    const read = all(queue);
    // One byte at a time over the first message's prefix, then the rest in one chunk.
    for (let at = 0; at < 7; at++) queue.push(body.subarray(at, at + 1));
    queue.push(body.subarray(7));
    queue.end();
    expect(await read).toEqual([[1, 2, 3], [], [4, 5]]);
  });

  it('a message is read as soon as it is complete, before the body ends', async () => {
    const queue = new EnvelopeQueue(100);
    const first = queue.next();
    queue.push(envelope([9]));
    expect(await first).toEqual({ done: false, value: new Uint8Array([9]) });
    queue.end();
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('refuses a message over readMaxBytes as Connect does (resource_exhausted), from its prefix', async () => {
    const queue = new EnvelopeQueue(4);
    queue.push(envelope([1, 2, 3, 4, 5]).subarray(0, 5));
    expect(await refusal(queue)).toEqual([
      Code.ResourceExhausted,
      'message size 5 is larger than configured readMaxBytes 4',
    ]);
  });

  it('refuses a compressed message (internal) and a body that ends inside a message (invalid_argument)', async () => {
    const compressed = new EnvelopeQueue(100);
    compressed.push(envelope([1], 1));
    expect(await refusal(compressed)).toEqual([
      Code.Internal,
      'received compressed envelope, but do not know how to decompress',
    ]);
    const cut = new EnvelopeQueue(100);
    cut.push(envelope([1, 2, 3]).subarray(0, 6));
    cut.end();
    expect(await refusal(cut)).toEqual([Code.InvalidArgument, 'protocol error: incomplete envelope']);
  });

  it('a failed body throws its error at the next read; what came before is read first', async () => {
    const queue = new EnvelopeQueue(100);
    queue.push(envelope([7]));
    queue.fail(new ConnectError('the client went away', Code.Canceled));
    expect(queue.settled).toBe(true);
    expect(await queue.next()).toEqual({ done: false, value: new Uint8Array([7]) });
    await expect(queue.next()).rejects.toThrow('the client went away');
  });
});

describe('EnvelopeQueue flow', () => {
  it('pauses the body while 16 messages wait unread, resumes once the call has read them', async () => {
    const flow: string[] = [];
    const queue = new EnvelopeQueue(100, { pause: () => flow.push('pause'), resume: () => flow.push('resume') });
    for (let i = 0; i < 20; i++) queue.push(envelope([i]));
    expect(flow).toEqual(['pause']);
    for (let i = 0; i < 19; i++) await queue.next();
    expect(flow).toEqual(['pause']);
    expect(await queue.next()).toEqual({ done: false, value: new Uint8Array([19]) });
    expect(flow).toEqual(['pause', 'resume']);
  });
});

describe('EnvelopeQueue flow by bytes', () => {
  it('pauses the body once 64 KiB of messages wait unread, however few, and takes a larger one whole', async () => {
    const flow: string[] = [];
    const queue = new EnvelopeQueue(1 << 20, { pause: () => flow.push('pause'), resume: () => flow.push('resume') });
    const kib = (n: number) => envelope(Array.from({ length: n * 1024 }, () => 1));
    queue.push(kib(40));
    expect(flow).toEqual([]);
    queue.push(kib(24));
    expect(flow).toEqual(['pause']);
    expect((await queue.next()).value?.length).toBe(40 * 1024);
    expect(flow).toEqual(['pause']);
    expect((await queue.next()).value?.length).toBe(24 * 1024);
    expect(flow).toEqual(['pause', 'resume']);
    // One message past the bound: taken whole, then paused until read.
    queue.push(kib(100));
    expect(flow).toEqual(['pause', 'resume', 'pause']);
    expect((await queue.next()).value?.length).toBe(100 * 1024);
    expect(flow).toEqual(['pause', 'resume', 'pause', 'resume']);
  });
});

describe('EnvelopeQueue, a large message in many small chunks', () => {
  it('reads it right, filling one buffer of its size rather than re-copying what it held per chunk', async () => {
    const size = 1 << 20;
    const bytes = Array.from({ length: size }, (_, i) => (i * 7) & 0xff);
    const body = new Uint8Array([...envelope(bytes), ...envelope([1, 2])]);
    const queue = new EnvelopeQueue(size);
    // 16 KiB frames, the first cut inside the prefix.
    queue.push(body.subarray(0, 3));
    for (let at = 3; at < body.length; at += 16384) queue.push(body.subarray(at, Math.min(body.length, at + 16384)));
    queue.end();
    const first = await queue.next();
    expect(first.done).toBe(false);
    const message = first.value as Uint8Array;
    expect(message.length).toBe(size);
    expect(message.every((byte, i) => byte === ((i * 7) & 0xff))).toBe(true);
    // Its own buffer, exactly its size: made once from its prefix, not a concatenation of what came.
    expect([message.byteOffset, message.buffer.byteLength]).toEqual([0, size]);
    expect(await queue.next()).toEqual({ done: false, value: new Uint8Array([1, 2]) });
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });
});
