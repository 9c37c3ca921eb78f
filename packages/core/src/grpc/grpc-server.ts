/**
 * Answers the calls of one endpoint's protobuf definitions, in schema mode:
 * Connect's own handlers (the Connect protocol, JSON and binary, and
 * gRPC-Web) over the Fetch API, each unary method answering a deterministic
 * message of its output type. Loaded (with Connect and Buf's runtime) only
 * when a name with definitions is called.
 *
 * @module
 */
import { type DescMethod, type FileRegistry, fromJson, type Message } from '@bufbuild/protobuf';
import { Code, createContextValues } from '@connectrpc/connect';
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from '@connectrpc/connect/protocol';
import { universalServerRequestFromFetch, universalServerResponseToFetch } from '@connectrpc/connect/protocol';
import { GRPC_CODE_NAMES } from '../api/grpc-json.js';
import type { GrpcCall } from './call-record.js';
import { type DirectMethod, type MethodAnswer, RESET_AFTER_MS } from './direct-call.js';
import type { GrpcRouting } from './grpc-reply.js';
import { CALL, methodTable } from './method-table.js';
import { parseFailureAsInvalidArgument } from './parse-failure.js';
import {
  type AnswerContext,
  bidiStream,
  type CallParts,
  clientStream,
  noteEnd,
  serverStream,
  unary,
} from './stream-answers.js';

export type { GrpcCall } from './call-record.js';

/** The server of one name's definitions. */
export interface GrpcServer {
  /** Whether `/{service}/{method}` is a method of the definitions. */
  has(path: string): boolean;
  /** Why `json` is no message of the output type of `/{service}/{method}` (a method it has), or `undefined` when it is one. */
  messageProblem(path: string, json: unknown): string | undefined;
  /** Whether `/{service}/{method}` streams its answer (server or bidirectional streaming): its call ends when the body has been sent. */
  streams(path: string): boolean;
  /** Whether `/{service}/{method}` takes a stream of requests (client or bidirectional streaming). */
  takesStream(path: string): boolean;
  /** The methods that take a stream of requests, as `/{service}/{method}`. */
  readonly takingStream: readonly string[];
  /**
   * Answers a Connect or gRPC-Web call (Fetch API) to one of its methods
   * ({@link has}), noting in `call` what it did. Native gRPC needs trailers,
   * which a Fetch `Response` cannot carry: it is answered `unimplemented` here
   * (the Node listener answers it with {@link handle}).
   */
  answer(request: Request, call: GrpcCall): Promise<Response>;
  /** A method answered as a native gRPC call without Connect's handler (direct-call.ts), by the handler Connect's router calls. */
  direct(path: string): DirectMethod | undefined;
  /** Answers a call of any protocol as Connect's universal handler (a runtime that can send trailers). */
  handle(request: UniversalServerRequest, call: GrpcCall): Promise<UniversalServerResponse>;
}

function protocolOf(request: Request): GrpcCall['protocol'] {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('application/grpc-web')) return 'grpc-web';
  if (type.startsWith('application/grpc')) return 'grpc';
  return 'connect';
}

/** Reads the status of an answer the handler gave before (or without) running the method. */
async function statusOf(response: Response, call: GrpcCall): Promise<void> {
  const header = response.headers.get('grpc-status');
  if (header !== null) {
    call.code = GRPC_CODE_NAMES[Number(header)] ?? header;
    const message = response.headers.get('grpc-message');
    if (message !== null) call.statusMessage = decodeURIComponent(message);
    return;
  }
  if (response.status === 200) return;
  try {
    const body = (await response.clone().json()) as { code?: string; message?: string };
    call.code = body.code ?? `http_${response.status}`;
    if (body.message !== undefined) call.statusMessage = body.message;
  } catch {
    call.code = `http_${response.status}`;
  }
}

/** The handler of `method`, of its kind: the routing and bound given, the call's mark passed; its end status noted. */
function answerOf(method: DescMethod, routing: GrpcRouting | undefined, maxHeldBytes: number): MethodAnswer {
  const parts = (call: GrpcCall | undefined): CallParts => ({ call, routing, maxHeldBytes });
  switch (method.methodKind) {
    case 'unary':
      return (request: Message, context: AnswerContext, call: GrpcCall | undefined) => {
        const known = parts(call);
        return unary(method, request, context, known).catch((error: unknown) => noteEnd(known, error));
      };
    case 'client_streaming':
      return (requests: AsyncIterable<Message>, context: AnswerContext, call: GrpcCall | undefined) => {
        const known = parts(call);
        return clientStream(method, requests, context, known).catch((error: unknown) => noteEnd(known, error));
      };
    case 'server_streaming':
      return (request: Message, context: AnswerContext, call: GrpcCall | undefined) => {
        const known = parts(call);
        return guarded(serverStream(method, request, context, known), known);
      };
    default:
      return (requests: AsyncIterable<Message>, context: AnswerContext, call: GrpcCall | undefined) => {
        const known = parts(call);
        return guarded(bidiStream(method, requests, context, known), known);
      };
  }
}

/** A stream's messages, its end status noted. */
async function* guarded(messages: AsyncGenerator<Message>, parts: CallParts): AsyncGenerator<Message> {
  try {
    yield* messages;
  } catch (error) {
    noteEnd(parts, error);
  }
}

/**
 * The response's body, cut with an error where a route reset the call: every
 * message is sent, then, instead of the end of the call (Connect's end-stream
 * message, gRPC-Web's trailers frame: the last chunk; native gRPC's HTTP/2
 * trailers, which are no chunk), the HTTP/2 stream or the HTTP/1.1
 * connection is reset, as a server that died mid-stream.
 */
async function* resettable(body: AsyncIterable<Uint8Array>, call: GrpcCall): AsyncIterable<Uint8Array> {
  let held: Uint8Array | undefined;
  for await (const chunk of body) {
    // The reset is known once the route's messages are sent (stream-answers.ts `close`): until
    // then each chunk goes out as it comes, which a bidirectional client waiting for its answer
    // before sending the next message needs; after it, the end of the call is held back.
    if (call.reset !== true) {
      yield chunk;
      continue;
    }
    if (held !== undefined) yield held;
    held = chunk;
  }
  if (call.reset === true) {
    if (held !== undefined && call.protocol === 'grpc') yield held;
    // What was written goes out before the cut (a runtime destroys a connection's unsent writes with it).
    await new Promise((resolve) => setTimeout(resolve, RESET_AFTER_MS));
    throw new Error('reset by the route');
  }
  if (held !== undefined) yield held;
}

/** Native gRPC where only the Fetch API answers: a Trailers-Only `unimplemented`, in the headers. */
function nativeOverFetch(call: GrpcCall): Response {
  call.code = 'unimplemented';
  call.statusMessage = 'native gRPC is answered on the Node daemon over HTTP/2 only';
  return new Response(null, {
    status: 200,
    headers: {
      'content-type': 'application/grpc',
      'grpc-status': String(Code.Unimplemented),
      'grpc-message': encodeURIComponent(call.statusMessage),
    },
  });
}

/** The bounds of a server's calls; past each, `RESOURCE_EXHAUSTED`. */
export interface GrpcServerLimits {
  /** The largest request message, in bytes. */
  readMaxBytes: number;
  /** The most request messages on one call (unbounded when absent). */
  maxStreamMessages?: number;
  /** The most bytes of a client stream's messages, held until it ends (unbounded when absent). */
  maxHeldBytes?: number;
}

/**
 * The server of `registry`'s services, within `limits`; `routing` chooses a
 * route's answer for a call (absent, or when it finds none: schema mode).
 */
export function createGrpcServer(registry: FileRegistry, limits: GrpcServerLimits, routing?: GrpcRouting): GrpcServer {
  const { readMaxBytes, maxStreamMessages = Number.POSITIVE_INFINITY } = limits;
  const maxHeldBytes = limits.maxHeldBytes ?? Number.POSITIVE_INFINITY;
  const table = methodTable(readMaxBytes, maxStreamMessages);
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        table.add(`/${service.typeName}/${method.name}`, method, answerOf(method, routing, maxHeldBytes));
      }
    }
  }
  const handlers = table.handlers();
  const handle = async (request: UniversalServerRequest, call: GrpcCall) => {
    const handler = handlers.get(new URL(request.url).pathname) as UniversalHandler;
    const response = await handler({ ...request, contextValues: createContextValues().set(CALL, call) });
    const body = response.body;
    if (body === undefined || !(Symbol.asyncIterator in body)) return response;
    return { ...response, body: resettable(body, call) };
  };
  const streaming = new Set<string>();
  const methods = new Map<string, DescMethod>();
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        methods.set(`/${service.typeName}/${method.name}`, method);
        if (method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming') {
          streaming.add(`/${service.typeName}/${method.name}`);
        }
      }
    }
  }
  const takingStream = [...methods]
    .filter(([, method]) => method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming')
    .map(([path]) => path);
  return {
    has: (path) => handlers.has(path),
    direct: table.direct,
    streams: (path) => streaming.has(path),
    takesStream: (path) => takingStream.includes(path),
    takingStream,
    messageProblem(path, json) {
      const output = (methods.get(path) as DescMethod).output;
      try {
        fromJson(output, json as never);
        return undefined;
      } catch (error) {
        return `no ${output.typeName}: ${(error as Error).message}`;
      }
    },
    handle,
    async answer(request, call) {
      call.protocol = protocolOf(request);
      if (call.protocol === 'grpc') return nativeOverFetch(call);
      const response = await parseFailureAsInvalidArgument(
        universalServerResponseToFetch(await handle(universalServerRequestFromFetch(request, {}), call)),
      );
      await statusOf(response, call);
      return response;
    },
  };
}
