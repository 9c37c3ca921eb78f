/**
 * The native gRPC calls open at once on one HTTP/2 connection
 * (`maxGrpcStreams`). HTTP/2 advertises at least as many concurrent streams
 * (serve.ts), so a client may open one more call than this; that call is
 * answered `RESOURCE_EXHAUSTED` rather than refused at the HTTP/2 layer, which
 * a gRPC client would report as `UNAVAILABLE`.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

const open = new WeakMap<object, number>();

/** The status message of a call over the limit. */
export function tooManyStreams(max: number): string {
  return `the connection has ${max} gRPC calls open already (MOCKPOINT_MAX_GRPC_STREAMS)`;
}

/**
 * Counts the call `req` against its connection's `max`: a function that
 * uncounts it (call it once, when the call is over), or `undefined` when the
 * connection has `max` calls open already.
 */
export function openGrpcStream(req: IncomingMessage, max: number): (() => void) | undefined {
  const session = (req as unknown as Http2ServerRequest).stream?.session;
  if (session === undefined) return () => {};
  const count = open.get(session) ?? 0;
  if (count >= max) return undefined;
  open.set(session, count + 1);
  let counted = true;
  return () => {
    if (!counted) return;
    counted = false;
    open.set(session, (open.get(session) ?? 1) - 1);
  };
}
