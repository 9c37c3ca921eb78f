/**
 * Answers the calls of one endpoint's protobuf definitions, in schema mode:
 * Connect's own handlers (the Connect protocol, JSON and binary, and
 * gRPC-Web) over the Fetch API, each unary method answering a deterministic
 * message of its output type. Loaded (with Connect and Buf's runtime) only
 * when a name with definitions is called.
 *
 * @module
 */
import {
  create,
  type DescMethod,
  type DescMethodUnary,
  type FileRegistry,
  fromJson,
  type JsonValue,
  type Message,
  toJson,
} from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createConnectRouter,
  createContextKey,
  createContextValues,
  type HandlerContext,
} from '@connectrpc/connect';
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from '@connectrpc/connect/protocol';
import { universalServerRequestFromFetch, universalServerResponseToFetch } from '@connectrpc/connect/protocol';
import { GRPC_CODE_NAMES, type GrpcMark } from '../wire/grpc-json.js';
import { SeededRandom, seedOf } from '../wire/seeded-random.js';
import { mockMessageJson } from './mock-message.js';
import { parseFailureAsInvalidArgument } from './parse-failure.js';
import { streamMessageLimit } from './stream-limit.js';

/** What one call did, filled in as it is answered (the journal's `grpc` mark). */
export type GrpcCall = Omit<GrpcMark, 'service' | 'method'>;

/** The server of one name's definitions. */
export interface GrpcServer {
  /** Whether `/{service}/{method}` is a method of the definitions. */
  has(path: string): boolean;
  /**
   * Answers a Connect or gRPC-Web call (Fetch API) to one of its methods
   * ({@link has}), noting in `call` what it did. Native gRPC needs trailers,
   * which a Fetch `Response` cannot carry: it is answered `unimplemented` here
   * (the Node listener answers it with {@link handle}).
   */
  answer(request: Request, call: GrpcCall): Promise<Response>;
  /** Answers a call of any protocol as Connect's universal handler (a runtime that can send trailers). */
  handle(request: UniversalServerRequest, call: GrpcCall): Promise<UniversalServerResponse>;
}

const CALL = createContextKey<GrpcCall | undefined>(undefined);

/** A message of `output` seeded by the method and the request: the same request, the same answer. */
function answerOf(method: DescMethod, request: unknown): Message {
  const random = new SeededRandom();
  random.reseed(seedOf(`${method.parent.typeName}/${method.name}\n${JSON.stringify(request)}`));
  const json = mockMessageJson(method.output, random);
  try {
    return fromJson(method.output, json as never, { ignoreUnknownFields: true });
  } catch {
    return create(method.output);
  }
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

/**
 * The request in proto3 JSON, which the journal keeps and schema mode is seeded by. A message
 * can be well-formed on the wire and have no JSON form (a `Timestamp` past year 9999): such a
 * request is `invalid_argument`, not an `internal` error (HTTP 500) from inside the handler.
 */
function requestJson(method: DescMethod, request: Message): JsonValue {
  try {
    return toJson(method.input, request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError(`the request has no proto3 JSON form: ${reason}`, Code.InvalidArgument);
  }
}

/** A unary method's schema-mode answer: notes the request in the call, answers a message of the output type. */
function unaryImpl(method: DescMethodUnary) {
  return (request: Message, context: HandlerContext): Message => {
    const json = requestJson(method, request);
    const call = context.values.get(CALL);
    if (call !== undefined) call.message = json;
    return answerOf(method, json);
  };
}

/** The answer of a streaming method, for now: `unimplemented`. */
function notYet(method: DescMethod) {
  return (_request: unknown, context: HandlerContext) => {
    const error = new ConnectError(
      `mockpoint does not answer ${method.methodKind.replace('_', '-')} calls yet`,
      Code.Unimplemented,
    );
    const call = context.values.get(CALL);
    if (call !== undefined) {
      call.code = 'unimplemented';
      call.statusMessage = error.rawMessage;
    }
    throw error;
  };
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

/**
 * The server of `registry`'s services: request messages of at most `readMaxBytes`,
 * at most `maxStreamMessages` of them on one call (more: `RESOURCE_EXHAUSTED`).
 */
export function createGrpcServer(
  registry: FileRegistry,
  readMaxBytes: number,
  maxStreamMessages = Number.POSITIVE_INFINITY,
): GrpcServer {
  const router = createConnectRouter({
    connect: true,
    grpcWeb: true,
    grpc: true,
    readMaxBytes,
    interceptors: [streamMessageLimit(maxStreamMessages)],
  });
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        const unary = method as DescMethodUnary;
        router.rpc(unary, method.methodKind === 'unary' ? unaryImpl(unary) : (notYet(method) as never));
      }
    }
  }
  const handlers = new Map<string, UniversalHandler>(router.handlers.map((handler) => [handler.requestPath, handler]));
  const handle = (request: UniversalServerRequest, call: GrpcCall) => {
    const handler = handlers.get(new URL(request.url).pathname) as UniversalHandler;
    return handler({ ...request, contextValues: createContextValues().set(CALL, call) });
  };
  return {
    has: (path) => handlers.has(path),
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
