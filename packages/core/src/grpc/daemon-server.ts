/**
 * The server of the services the daemon answers itself (daemon-protos.ts):
 * health and server reflection, through Connect's router like a name's own
 * server (grpc-server.ts), answering from a {@link GrpcView} of the
 * definitions the daemon holds. Its calls are not journaled: they belong to
 * no name.
 *
 * @module
 */
import { create, type DescMessage, type DescMethod, type FileRegistry } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import type { UniversalHandler } from '@connectrpc/connect/protocol';
import { universalServerRequestFromFetch, universalServerResponseToFetch } from '@connectrpc/connect/protocol';
import { DAEMON_SERVICES, HEALTH_SERVICE } from './daemon-protos.js';
import type { GrpcServer } from './grpc-server.js';
import { check, watch } from './health.js';
import { methodTable } from './method-table.js';
import { type GrpcView, type ReflectionRequest, reflect } from './reflection.js';
import type { AnswerContext } from './stream-answers.js';

/** A handler of one method (typed loosely: the descriptors are built at run time). */
type Impl = (request: never, context: AnswerContext) => unknown;

function reflectionImpl(view: GrpcView, output: DescMessage): Impl {
  return async function* (requests: AsyncIterable<ReflectionRequest>) {
    for await (const request of requests) {
      const messageResponse = await reflect(view, request);
      yield create(output, { validHost: request.host, originalRequest: request as never, messageResponse } as never);
    }
  } as unknown as Impl;
}

function implOf(view: GrpcView, method: DescMethod): Impl {
  if (method.parent.typeName !== HEALTH_SERVICE) return reflectionImpl(view, method.output);
  if (method.name === 'Check') return ((request: { service: string }) => check(view, request.service)) as Impl;
  return ((request: { service: string }, context: AnswerContext) =>
    watch(view, request.service, context.signal)) as Impl;
}

/** Native gRPC where only the Fetch API answers: a Trailers-Only `unimplemented`, in the headers. */
function nativeOverFetch(): Response {
  return new Response(null, {
    status: 200,
    headers: {
      'content-type': 'application/grpc',
      'grpc-status': String(Code.Unimplemented),
      'grpc-message': encodeURIComponent('native gRPC is answered on the Node daemon over HTTP/2 only'),
    },
  });
}

/** The server of the daemon's own services, compiled in `registry`, answering from `view`. */
export function createDaemonServer(
  registry: FileRegistry,
  view: GrpcView,
  readMaxBytes: number,
  maxStreamMessages = Number.POSITIVE_INFINITY,
): GrpcServer {
  // The limits of the names' own servers: a reflection stream takes at most maxStreamMessages requests.
  const table = methodTable(readMaxBytes, maxStreamMessages);
  for (const name of DAEMON_SERVICES) {
    const service = registry.getService(name);
    if (service === undefined) continue;
    for (const method of service.methods) table.add(`/${name}/${method.name}`, method, implOf(view, method));
  }
  const handlers = table.handlers();
  const handle: GrpcServer['handle'] = (request) =>
    (handlers.get(new URL(request.url).pathname) as UniversalHandler)(request);
  return {
    has: (path) => handlers.has(path),
    direct: table.direct,
    // Its calls are not journaled, so when their answer ends does not matter; no route answers them.
    streams: () => false,
    takesStream: () => false,
    takingStream: [],
    messageProblem: () => undefined,
    handle,
    async answer(request, call) {
      const type = request.headers.get('content-type') ?? '';
      if (type.startsWith('application/grpc') && !type.startsWith('application/grpc-web')) return nativeOverFetch();
      call.protocol = type.startsWith('application/grpc-web') ? 'grpc-web' : 'connect';
      return universalServerResponseToFetch(await handle(universalServerRequestFromFetch(request, {}), call));
    },
  };
}
