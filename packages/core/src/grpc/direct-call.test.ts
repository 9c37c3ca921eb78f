/**
 * A direct call whose head the wire refuses (Node's `stream.respond` throws on a header HTTP/2
 * forbids): the call is cut, never ended with trailers after no head, nor left to the last resort.
 */

import { EmptySchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import type { GrpcCall } from './call-record.js';
import { type DirectMethod, type GrpcWire, runDirectCall } from './direct-call.js';
import { DirectContext } from './direct-context.js';
import { EnvelopeQueue } from './envelope-queue.js';

/** A wire whose head throws, noting what was done to it. */
function refusingWire(done: string[]): GrpcWire {
  return {
    gone: false,
    head() {
      done.push('head');
      throw new TypeError('Invalid connection header');
    },
    send() {
      done.push('send');
      return undefined;
    },
    end() {
      done.push('end');
    },
    reset() {
      done.push('reset');
    },
  };
}

function target(answer: DirectMethod['answer']): DirectMethod {
  return {
    method: { methodKind: 'unary', output: EmptySchema } as unknown as DirectMethod['method'],
    answer,
    parse: () => ({}) as never,
    serialize: () => new Uint8Array(0),
    maxStreamMessages: 10,
    readMaxBytes: 1024,
  };
}

/** One empty request message, then the body's end. */
function oneMessage(): EnvelopeQueue {
  const queue = new EnvelopeQueue(1024);
  queue.push(new Uint8Array(5));
  queue.end();
  return queue;
}

describe('runDirectCall when the wire refuses the head', () => {
  it('cuts a call whose answer could not be headed, rather than ending it with no head', async () => {
    const done: string[] = [];
    const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
    const context = new DirectContext([]);
    context.responseHeader.set('connection', 'close');
    await runDirectCall(
      target(() => ({})),
      oneMessage(),
      context,
      call,
      refusingWire(done),
      null,
    );
    expect(done).toEqual(['head', 'head', 'reset']);
    expect(call.code).toBe('internal');
  });

  it('cuts a call ending in a status whose head is refused, rather than rejecting', async () => {
    const done: string[] = [];
    const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
    const answer = () => {
      throw new ConnectError('none', Code.NotFound);
    };
    await runDirectCall(target(answer), oneMessage(), new DirectContext([]), call, refusingWire(done), null);
    expect(done).toEqual(['head', 'reset']);
    expect(call.code).toBe('not_found');
  });
});
