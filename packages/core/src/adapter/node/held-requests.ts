/**
 * Each request a namespace's Node listener serves is held work of that
 * namespace's app (http/held-work.ts) until its response closes: deleting the
 * namespace ends it at once. One not answered yet is answered
 * `404 NAMESPACE_NOT_FOUND` (a gRPC call: Trailers-Only `NOT_FOUND`); one whose
 * answer has begun (a stream, a gRPC call mid-way) is cut, as a closing server
 * cuts it.
 *
 * @module
 */
import type { RequestListener, ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { nodeBuiltin } from '../../cache/node-builtin.js';
import type { HeldWork } from '../../http/held-work.js';

/** The message of a request ended by its namespace's delete. */
function deletedMessage(name: string): string {
  return `namespace "${name}" was deleted while this request was held; make it again with POST /api/namespaces`;
}

function isGrpc(res: ServerResponse): boolean {
  const type = res.req?.headers['content-type'];
  return typeof type === 'string' && type.startsWith('application/grpc');
}

/** Answers `res` as the namespace's delete ends it: an error when nothing was sent yet, else cut. */
function endDeleted(res: ServerResponse, name: string): void {
  if (res.writableEnded || res.destroyed) return;
  // Whatever of the app's still writes to it (an answer released a moment ago) is dropped, never thrown.
  res.on('error', () => undefined);
  const stream = (res as unknown as Partial<Http2ServerResponse>).stream;
  if (res.headersSent) {
    if (stream !== undefined) stream.close(nodeBuiltin('node:http2').constants.NGHTTP2_CANCEL);
    else res.destroy();
    return;
  }
  const message = deletedMessage(name);
  if (isGrpc(res)) {
    const trailersOnly = {
      'content-type': 'application/grpc',
      'grpc-status': '5',
      'grpc-message': encodeURIComponent(message),
    };
    // Trailers-Only: one HEADERS frame that ends the stream (the compat API would send an empty DATA frame after).
    if (stream !== undefined) stream.respond({ ':status': 200, ...trailersOnly }, { endStream: true });
    else res.writeHead(200, trailersOnly).end();
    return;
  }
  const body = JSON.stringify({ success: false, error: { code: 'NAMESPACE_NOT_FOUND', message } });
  res.writeHead(404, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    // HTTP/1.1: the connection may be mid-way through a request body; HTTP/2 has no such header.
    ...(stream === undefined ? { connection: 'close' } : {}),
  });
  res.end(body);
}

/** `listener`, with each request it serves held by `held` until its response closes. */
export function holdingListener(listener: RequestListener, held: HeldWork): RequestListener {
  const name = held.namespace ?? 'default';
  return (req, res) => {
    const release = held.add(() => endDeleted(res, name));
    res.once('close', release);
    listener(req, res);
  };
}
