/**
 * The methods a gRPC server answers, each reachable two ways: through Connect's router (every
 * protocol: Connect, gRPC-Web, gRPC) and as a native call answered on its HTTP/2 stream without
 * Connect's handler (direct-call.ts). One handler serves both; both refuse what is past the same
 * limits. A name's server (grpc-server.ts) and the daemon's own (daemon-server.ts) are built on it.
 *
 * @module
 */
import type { DescMethod } from '@bufbuild/protobuf';
import { createConnectRouter, createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { UniversalHandler } from '@connectrpc/connect/protocol';
import type { GrpcCall } from './call-record.js';
import { type DirectMethod, directMethod, type MethodAnswer } from './direct-call.js';
import { streamMessageLimit } from './stream-limit.js';

/** Where Connect's handler finds the call's mark (set by whoever hands it the request). */
export const CALL = createContextKey<GrpcCall | undefined>(undefined);

/** A server's methods by path (`/{service}/{method}`), for Connect's handler and for direct calls. */
export interface MethodTable {
  /** Adds `method` at `path`, answered by `answer`. */
  add(path: string, method: DescMethod, answer: MethodAnswer): void;
  /** Connect's universal handlers by path (once every method is added). */
  handlers(): Map<string, UniversalHandler>;
  /** The direct native answer of `path`'s method. */
  direct(path: string): DirectMethod | undefined;
}

/** An empty table whose calls read at most `readMaxBytes` a message and `maxStreamMessages` a stream. */
export function methodTable(readMaxBytes: number, maxStreamMessages: number): MethodTable {
  const router = createConnectRouter({
    connect: true,
    grpcWeb: true,
    grpc: true,
    readMaxBytes,
    interceptors: [streamMessageLimit(maxStreamMessages)],
  });
  const direct = new Map<string, DirectMethod>();
  return {
    add(path, method, answer) {
      router.rpc(
        method as never,
        ((input: never, context: HandlerContext) => answer(input, context, context.values.get(CALL))) as never,
      );
      direct.set(path, directMethod(method, answer, readMaxBytes, maxStreamMessages));
    },
    handlers: () => new Map(router.handlers.map((handler) => [handler.requestPath, handler])),
    direct: (path) => direct.get(path),
  };
}
