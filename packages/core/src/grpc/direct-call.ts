/**
 * A native gRPC call (uncompressed, binary) answered without Connect's
 * universal handler: its request messages read from an {@link EnvelopeQueue},
 * parsed and the answer's messages serialized with Connect's serialization of
 * the method (Buf's runtime, Connect's limits and error messages), the method
 * answered by the same handler Connect's router calls (grpc-server.ts,
 * daemon-server.ts), and the answer given to a {@link GrpcWire} that a runtime
 * with HTTP/2 trailers writes (adapter/node/grpc-direct.ts): the headers
 * before the first message, each message in gRPC's 5-byte envelope, then the
 * status in the trailers, as Connect's gRPC handler sets them
 * (`setTrailerStatus`: `grpc-status`, `grpc-message` percent-encoded,
 * `grpc-status-details-bin`, the handler's trailers). Connect's handler runs
 * each call through an async-iterable pipeline, three `Headers` and an abort
 * signal; this path makes those only when the call needs them.
 *
 * @module
 */
import { create, type DescMethod, isMessage, type Message } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { createMethodSerializationLookup } from '@connectrpc/connect/protocol';
import { contentTypeProto, grpcStatusOk, parseTimeout, setTrailerStatus } from '@connectrpc/connect/protocol-grpc';
import { GRPC_CODE_NAMES } from '../api/grpc-json.js';
import type { GrpcCall } from './call-record.js';
import type { DirectContext } from './direct-context.js';
import type { EnvelopeQueue } from './envelope-queue.js';
import { type AnswerContext, stableMessage } from './stream-answers.js';
import { countedMessages } from './stream-limit.js';

/** A method's handler as its router registers it, with the call's journal mark (`undefined`: none kept). */
export type MethodAnswer = (input: never, context: AnswerContext, call: GrpcCall | undefined) => unknown;

/** What writes a direct call's answer (an HTTP/2 stream). */
export interface GrpcWire {
  /** Sends the response headers (`content-type` and the handler's metadata); once, before anything else. */
  head(headers: Record<string, string>): void;
  /** Sends one message's bytes in gRPC's 5-byte envelope (uncompressed); a promise when the client must read first. */
  send(message: Uint8Array): Promise<void> | undefined;
  /** Ends the call with its trailers. */
  end(trailers: Record<string, string>): void;
  /** Cuts the call, no status (a route's `fault: "reset"`). */
  reset(): void;
  /** Whether the client has gone (nothing more can be sent). */
  readonly gone: boolean;
}

/** One method of a server, ready to be answered directly. */
export interface DirectMethod {
  method: DescMethod;
  answer: MethodAnswer;
  /** Parses a request message (within `readMaxBytes`), serializes an answer's. */
  parse(bytes: Uint8Array): Message;
  serialize(message: Message): Uint8Array;
  /** The messages a streaming client may send (`maxGrpcStreamMessages`). */
  maxStreamMessages: number;
  readMaxBytes: number;
}

/** The encoding of a route's messages sent unchanged on every call (stream-answers.ts `stableMessage`), kept. */
const ENCODED = new WeakMap<Message, Uint8Array>();

/** The {@link DirectMethod} of `method` answered by `answer`, within the server's limits. */
export function directMethod(
  method: DescMethod,
  answer: MethodAnswer,
  readMaxBytes: number,
  maxStreamMessages: number,
): DirectMethod {
  const limits = { readMaxBytes, writeMaxBytes: 0xffffffff, compressMinBytes: 1024 };
  const lookup = createMethodSerializationLookup(method, undefined, undefined, limits);
  const input = lookup.getI(true);
  const output = lookup.getO(true);
  return {
    method,
    answer,
    parse: (bytes) => input.parse(bytes) as Message,
    serialize(message) {
      if (!stableMessage(message)) return output.serialize(message);
      let bytes = ENCODED.get(message);
      if (bytes === undefined) {
        bytes = output.serialize(message);
        ENCODED.set(message, bytes);
      }
      return bytes;
    },
    maxStreamMessages,
    readMaxBytes,
  };
}

/** Milliseconds between a reset call's last message and the cut (as on Connect's path, grpc-server.ts). */
export const RESET_AFTER_MS = 50;

/** Connect's check that a unary or server-streaming call brings exactly one message. */
async function single(target: DirectMethod, queue: EnvelopeQueue, kind: string): Promise<Message> {
  const first = await queue.next();
  if (first.done === true) {
    throw new ConnectError(`protocol error: missing input message for ${kind} method`, Code.Unimplemented);
  }
  const second = await queue.next();
  if (second.done !== true) {
    throw new ConnectError(`protocol error: received extra input message for ${kind} method`, Code.Unimplemented);
  }
  return target.parse(first.value);
}

async function* parsed(target: DirectMethod, queue: EnvelopeQueue): AsyncGenerator<Message> {
  for await (const bytes of countedMessages(queue, target.maxStreamMessages)) yield target.parse(bytes);
}

/** The answer's headers: Connect's content type, then the handler's metadata. */
function headersOf(context: DirectContext): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': contentTypeProto };
  context.metadata?.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

function trailersOf(context: DirectContext, error: ConnectError | undefined): Record<string, string> {
  const trailers: Record<string, string> = {};
  if (error === undefined && context.trailers === undefined) {
    trailers['grpc-status'] = grpcStatusOk;
    return trailers;
  }
  const target = context.responseTrailer;
  if (error === undefined) target.set('grpc-status', grpcStatusOk);
  else setTrailerStatus(target, error);
  target.forEach((value, name) => {
    trailers[name] = value;
  });
  return trailers;
}

/** What a call has written so far. */
interface Written {
  headed: boolean;
}

/** Sends the headers, unless sent (noted sent once the wire took them: a head it refused is not sent). */
function head(wire: GrpcWire, context: DirectContext, written: Written): void {
  if (written.headed) return;
  wire.head(headersOf(context));
  written.headed = true;
}

/** Sends the answer (one message, or a stream's), each serialized in its envelope; the headers before the first. */
async function sendAll(
  target: DirectMethod,
  output: unknown,
  context: DirectContext,
  wire: GrpcWire,
  written: Written,
): Promise<void> {
  const type = target.method.output;
  const sendOne = (value: unknown) => {
    head(wire, context, written);
    // A handler may answer an init object, as Connect's `normalize` allows.
    const message = isMessage(value, type) ? value : create(type, value as never);
    return wire.send(target.serialize(message));
  };
  if (output !== null && typeof output === 'object' && Symbol.asyncIterator in output) {
    for await (const value of output as AsyncIterable<unknown>) {
      if (wire.gone) break;
      const wait = sendOne(value);
      if (wait !== undefined) await wait;
    }
    return;
  }
  const value = await output;
  if (!wire.gone) await sendOne(value);
}

/**
 * Answers one native gRPC call to `target`: reads its messages from `queue`
 * (unary and server streaming: exactly one; client and bidirectional: as they
 * come, at most `maxStreamMessages`), runs the method's handler, writes its
 * answer to `wire`. `timeout` is the request's `grpc-timeout`. Resolves when
 * the answer is written; a status other than `ok` is noted in `call`.
 */
export async function runDirectCall(
  target: DirectMethod,
  queue: EnvelopeQueue,
  context: DirectContext,
  call: GrpcCall,
  wire: GrpcWire,
  timeout: string | null,
): Promise<void> {
  const written: Written = { headed: false };
  try {
    const deadline = parseTimeout(timeout, Number.MAX_SAFE_INTEGER);
    if (deadline.error !== undefined) throw deadline.error;
    if (deadline.timeoutMs !== undefined) context.deadline(deadline.timeoutMs);
    const kind = target.method.methodKind;
    const input =
      kind === 'unary' || kind === 'server_streaming'
        ? await single(target, queue, kind === 'unary' ? 'unary' : 'server-streaming')
        : parsed(target, queue);
    await sendAll(target, target.answer(input as never, context, call), context, wire, written);
    if (call.reset === true) return await cut(wire);
    if (!wire.gone) end(wire, context, written, undefined);
  } catch (error) {
    if (call.reset === true) return await cut(wire);
    const status =
      error instanceof ConnectError
        ? error
        : new ConnectError('internal error', Code.Internal, undefined, undefined, error);
    if (call.code === 'ok') {
      call.code = GRPC_CODE_NAMES[status.code] ?? String(status.code);
      call.statusMessage = status.rawMessage;
    }
    if (!wire.gone) end(wire, context, written, status);
  } finally {
    context.done();
  }
}

/** Ends the call with its status; a head or trailers the wire refuses cut it instead (no status is a wrong one). */
function end(wire: GrpcWire, context: DirectContext, written: Written, error: ConnectError | undefined): void {
  try {
    head(wire, context, written);
    wire.end(trailersOf(context, error));
  } catch {
    wire.reset();
  }
}

/** A route's reset: what was written goes out first, then the stream is cut. */
async function cut(wire: GrpcWire): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, RESET_AFTER_MS));
  wire.reset();
}
