/**
 * The end of a native gRPC call whose client is still sending: RFC 9113 §8.1 lets a server
 * that has sent its whole answer ask the client to stop with RST_STREAM NO_ERROR.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest, ServerHttp2Stream } from 'node:http2';
import { nodeBuiltin } from '../../cache/node-builtin.js';

/**
 * Once the answer is sent whole, a client still sending (a message over the limit, a call
 * refused unread) is told to stop with RST_STREAM NO_ERROR. Node sends none by itself: the
 * client's write waited on the stream's flow-control window until the request timeout closed the
 * stream (30 s). The reset goes after the answer's last frame: a Trailers-Only answer's HEADERS
 * (`trailers: false`; Node waits for the stream's `finish` before a NO_ERROR reset), or the
 * trailers Node asks for on `wantTrailers` (`trailers: true`), which a reset sent before them
 * would lose. The client's write then ends at once, and the status it read stands.
 */
export function stopSending(req: IncomingMessage, trailers: boolean): void {
  const stream = (req as unknown as Http2ServerRequest).stream as ServerHttp2Stream | undefined;
  if (stream === undefined || stillSent(stream, req) === false) return;
  const stop = () => {
    if (stillSent(stream, req)) stream.close(nodeBuiltin('node:http2').constants.NGHTTP2_NO_ERROR);
  };
  // The compat response sends the trailers from its own `wantTrailers` listener, which was added first.
  if (trailers && stream.sentTrailers === undefined) stream.once('wantTrailers', () => setImmediate(stop));
  else stop();
}

/** Whether the client may still be sending on `stream` (its request not read to its end). */
function stillSent(stream: ServerHttp2Stream, req: IncomingMessage): boolean {
  return !stream.destroyed && !stream.closed && !req.readableEnded;
}
