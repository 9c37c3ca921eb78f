/**
 * The messages one gRPC-family call may bring (`maxGrpcStreamMessages`): a
 * server interceptor of Connect's router that counts a streaming call's
 * request messages as the handler reads them, and ends the call with
 * `RESOURCE_EXHAUSTED` at one more. Every protocol (gRPC, gRPC-Web, Connect)
 * passes through it; a unary call has one message and is not counted. A
 * native call answered without Connect's handler counts with {@link countedMessages}.
 *
 * @module
 */
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';

/** The status message of a call cut at the limit. */
export function tooManyMessages(max: number): string {
  return `the call sent more than ${max} messages (MOCKPOINT_MAX_GRPC_STREAM_MESSAGES)`;
}

/** The status message of a client stream cut at `max` bytes of messages held. */
export function tooMuchHeld(max: number): string {
  return `the call's messages came to more than ${max} bytes (MOCKPOINT_MAX_BODY_BYTES)`;
}

/** `messages`, ended with `RESOURCE_EXHAUSTED` at the `max` + 1st (also used by direct-call.ts). */
export async function* countedMessages<T>(messages: AsyncIterable<T>, max: number): AsyncIterable<T> {
  let count = 0;
  for await (const message of messages) {
    if (++count > max) throw new ConnectError(tooManyMessages(max), Code.ResourceExhausted);
    yield message;
  }
}

/** An interceptor that refuses a call's message past the `max`th with `RESOURCE_EXHAUSTED`. */
export function streamMessageLimit(max: number): Interceptor {
  return (next) => (request) => {
    if (!request.stream) return next(request);
    return next({ ...request, message: countedMessages(request.message, max) });
  };
}
