// A gRPC-family call's journal entry is the journal step's, written once the call is over: the
// adapter opens the call (openCall walks the journal step) and ends it with its status and body.
import { describe, expect, it } from 'vitest';
import type { GrpcCall } from '../../grpc/call-record.js';
import type { GrpcServer } from '../../grpc/grpc-server.js';
import type { Journal } from '../../journal/journal.js';
import { type FoundGrpcCall, openCall } from '../grpc-calls.js';
import type { PipelineParts } from './exchange.js';

/** A journal that keeps what it is asked to record. */
function recording(): { parts: PipelineParts; recorded: unknown[][] } {
  const recorded: unknown[][] = [];
  const journal = { record: (...args: unknown[]) => recorded.push(args) } as unknown as Journal;
  return { parts: { journal } as unknown as PipelineParts, recorded };
}

const FOUND: FoundGrpcCall = { name: 'echo', service: 'echo.v1.Echo', method: 'Say', server: {} as GrpcServer };
const REQUEST = { target: '/echo.v1.Echo/Say?x=1', rawHeaders: ['content-type', 'application/grpc'], startedAt: 7 };

describe("a call's journal entry, written by the journal step when the call is over", () => {
  it('writes nothing while the call runs, then its entry once, with its messages, status and route', () => {
    const { parts, recorded } = recording();
    const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
    const end = openCall(parts, FOUND, REQUEST, call);
    // Filled in as the call is answered, after it was opened: the entry must see it all.
    call.messages = [{ text: 'hi' }];
    call.message = { text: 'hi' };
    call.responses = [{ text: 'hi' }];
    call.route = 'r1';
    expect(recorded).toEqual([]);
    end.over(200, new Uint8Array([0, 0, 0, 0, 4]));
    end.over(500);
    expect(recorded).toEqual([
      [
        'echo',
        {
          method: 'POST',
          target: '/echo.v1.Echo/Say?x=1',
          rawHeaders: ['content-type', 'application/grpc'],
          body: new Uint8Array([0, 0, 0, 0, 4]),
          bodyTruncated: false,
          startedAt: 7,
        },
        200,
        {
          answeredBy: { route: 'r1' },
          grpc: {
            service: 'echo.v1.Echo',
            method: 'Say',
            protocol: 'grpc',
            code: 'ok',
            messages: [{ text: 'hi' }],
            message: { text: 'hi' },
            responses: [{ text: 'hi' }],
          },
        },
      ],
    ]);
  });

  it('journals a call refused before it was read (no body) as answered by its definitions', () => {
    const { parts, recorded } = recording();
    const call: GrpcCall = { protocol: 'grpc', code: 'resource_exhausted', statusMessage: 'too many streams' };
    openCall(parts, FOUND, REQUEST, call).over(200);
    expect(recorded).toHaveLength(1);
    const [, request, status, mark] = recorded[0] as [string, { body: Uint8Array }, number, { answeredBy: unknown }];
    expect([request.body.length, status, mark.answeredBy]).toEqual([0, 200, 'grpc']);
  });

  it("does not journal a call to the daemon's own services, which belong to no name", () => {
    const { parts, recorded } = recording();
    openCall(parts, { ...FOUND, name: '', daemon: true }, REQUEST, { protocol: 'grpc', code: 'ok' }).over(200);
    expect(recorded).toEqual([]);
  });
});
