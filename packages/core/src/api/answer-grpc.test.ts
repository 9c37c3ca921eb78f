import { describe, expect, it } from 'vitest';
import { type GrpcAnswerLimits, grpcAnswerProblem, grpcCodeOf } from './answer-grpc.js';

const LIMITS: GrpcAnswerLimits = {
  maxBodyBytes: 1024,
  maxDelayMs: 1000,
  maxStreamEvents: 3,
  template: false,
  fault: undefined,
};

describe('gRPC answers at the wire', () => {
  it('reads status codes by name in any case or by number, and nothing else', () => {
    expect([grpcCodeOf('not_found'), grpcCodeOf('NOT_FOUND'), grpcCodeOf(5), grpcCodeOf('ok'), grpcCodeOf(16)]).toEqual(
      [5, 5, 5, 0, 16],
    );
    expect([grpcCodeOf('nope'), grpcCodeOf(17), grpcCodeOf(-1), grpcCodeOf(1.5)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes a well-formed answer', () => {
    expect(
      grpcAnswerProblem(
        {
          messages: [{ message: { a: 1 } }, { message: {}, delay: 1000 }],
          status: {
            code: 'unavailable',
            message: 'down',
            details: [{ type: 'google.rpc.ErrorInfo', value: 'CgNmb28=' }],
          },
          metadata: { 'x-a': ['1', '2'], 'x-b-bin': 'AAE=' },
          trailers: { 'x-c': 'v' },
        },
        LIMITS,
      ),
    ).toBeUndefined();
  });

  it('names what cannot be sent', () => {
    const problem = (answer: object, limits: Partial<GrpcAnswerLimits> = {}) =>
      grpcAnswerProblem(answer, { ...LIMITS, ...limits });
    expect(problem({ message: {}, messages: [] })).toMatch(/not both/);
    expect(problem({ message: {} }, { fault: 'hang' })).toMatch(/fault "hang" does not apply/);
    expect(problem({ messages: [{ message: {} }, { message: {} }, { message: {} }, { message: {} }] })).toMatch(
      /sends 4 messages, more than 3/,
    );
    expect(problem({ messages: [{ message: {}, delay: 1001 }] })).toMatch(/delay 1001 is more than 1000/);
    expect(problem({ message: { a: 'x'.repeat(2000) } })).toMatch(/bytes of JSON, more than 1024/);
    expect(problem({ status: { code: 'broken' } })).toMatch(/is no gRPC status/);
    expect(problem({ status: { code: 3, message: 'a\r\nb' } })).toMatch(/control character/);
    expect(problem({ status: { code: 3, details: [{ type: 'not a name', value: '' }] } })).toMatch(
      /no full message name/,
    );
    expect(problem({ status: { code: 3, details: [{ type: 'a.B', value: '***' }] } })).toMatch(/not base64/);
    expect(problem({ metadata: { 'grpc-status': '0' } })).toMatch(/sent by the protocol itself/);
    expect(problem({ trailers: { 'Content-Type': 'x' } })).toMatch(/sent by the protocol itself/);
    for (const name of ['connection', 'Keep-Alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']) {
      expect(problem({ metadata: { [name]: 'x' } })).toBe(
        `metadata: ${name} is a connection-specific header, which HTTP/2 forbids (RFC 9113 §8.2.2): native gRPC could not send it`,
      );
      expect(problem({ trailers: { [name]: 'x' } })).toMatch(/^trailers: .* is a connection-specific header/);
    }
    expect(problem({ metadata: { ':status': '200' } })).toMatch(/^metadata: header name ":status"/);
    expect(problem({ metadata: { 'x-a': 'a\nb' } })).toMatch(/^metadata\.x-a /);
    expect(problem({ metadata: { 'bad name': 'a' } })).toMatch(/not a valid HTTP token/);
    expect(problem({ metadata: { 'x-a-bin': '***' } })).toMatch(/-bin entry\) is not base64/);
    expect(problem({ message: { text: '{{nope}}' } }, { template: true })).toMatch(/is not a placeholder/);
    expect(problem({ message: { text: '{{nope}}' } })).toBeUndefined();
  });
});
