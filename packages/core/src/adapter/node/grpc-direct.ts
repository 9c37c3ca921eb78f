/**
 * A native gRPC call answered on its HTTP/2 stream without Connect's
 * universal handler (grpc/direct-call.ts answers it): the request body pushed
 * into an {@link EnvelopeQueue} as it arrives (a streaming method reads each
 * message when it comes), the answer written with `stream.respond(…, {
 * waitForTrailers: true })`, its messages, then the trailers on
 * `wantTrailers` (by Node's compat response, which listens for it). The messages written in one turn of the event loop (a
 * server stream's) leave in one write (the stream is corked until the next
 * tick). A client that resets the stream aborts the call.
 *
 * Taken for binary, uncompressed calls (grpc-native.ts `directable`); the rest (a
 * `grpc-encoding` other than `identity`, `application/grpc+json`) go to
 * Connect's handler as before. Imported on the first such call, when the
 * protobuf libraries are loaded already (a daemon without definitions never loads them).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest, type ServerHttp2Stream } from 'node:http2';
import { Code, ConnectError } from '@connectrpc/connect';
import type { GrpcCall } from '../../grpc/call-record.js';
import { type DirectMethod, type GrpcWire, runDirectCall } from '../../grpc/direct-call.js';
import { DirectContext } from '../../grpc/direct-context.js';
import { EnvelopeQueue } from '../../grpc/envelope-queue.js';
import { drained } from './grpc-answer-writer.js';
import { type BodyCopy, keepCopy } from './grpc-body-copy.js';
import { stopSending } from './grpc-stop-sending.js';

/**
 * The call's answer written to `stream`. Its trailers go through Node's compat
 * response `res`, which sends them on the stream's `wantTrailers` (it listens for it).
 */
function wireOf(stream: ServerHttp2Stream, res: ServerResponse): GrpcWire {
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  const gone = () => stream.destroyed || stream.closed;
  return {
    get gone() {
      return gone();
    },
    head(headers) {
      if (gone() || stream.headersSent) return;
      stream.respond({ ':status': 200, ...headers }, { waitForTrailers: true });
    },
    send(message) {
      if (gone()) return undefined;
      // gRPC's envelope: no flags (uncompressed), the length (big-endian), the message; from Node's buffer pool.
      const envelope = Buffer.allocUnsafe(5 + message.byteLength);
      envelope[0] = 0;
      envelope.writeUInt32BE(message.byteLength, 1);
      envelope.set(message, 5);
      if (!corked) {
        corked = true;
        stream.cork();
        process.nextTick(uncork);
      }
      if (stream.write(envelope)) return undefined;
      uncork();
      return drained(stream);
    },
    end(trailers) {
      uncork();
      if (gone()) return;
      res.addTrailers(trailers);
      stream.end();
    },
    reset() {
      uncork();
      // Nothing sent yet (a chaos reset): a destroyed stream would end with NO_ERROR, which a client
      // waiting for headers does not read as the end; CANCEL does.
      if (!stream.headersSent) stream.close(constants.NGHTTP2_CANCEL);
      else stream.destroy();
    },
  };
}

/**
 * Answers `req` by `target` on its HTTP/2 stream; `copy` gets the journal's
 * copy of the body. Resolves when the answer is written (or the call cut).
 */
export async function answerDirect(
  target: DirectMethod,
  req: IncomingMessage,
  res: ServerResponse,
  rawHeaders: readonly string[],
  call: GrpcCall,
  copy: BodyCopy,
): Promise<void> {
  const stream = (req as unknown as Http2ServerRequest).stream as ServerHttp2Stream;
  const context = new DirectContext(rawHeaders);
  const queue = new EnvelopeQueue(target.readMaxBytes, { pause: () => req.pause(), resume: () => req.resume() });
  req.on('data', (chunk: Uint8Array) => {
    keepCopy(copy, chunk);
    queue.push(chunk);
  });
  req.once('end', () => queue.end());
  // The client went away (RST_STREAM, or the connection lost) before the call was over: the stream
  // closes with an error code; a call answered to its end closes with 0 (NO_ERROR).
  const closed = () => {
    if (stream.rstCode !== 0) context.abort();
    if (!queue.settled) queue.fail(new ConnectError('the client went away', Code.Canceled));
  };
  // A stream reset before this call began (while grpc-direct.js was imported) closed already: no 'close' comes.
  if (stream.closed || stream.destroyed) closed();
  else stream.once('close', closed);
  await runDirectCall(target, queue, context, call, wireOf(stream, res), header(req, 'grpc-timeout'));
  // The call is over: a client still sending (a message over the limit) is told to stop once the
  // answer is out (RST_STREAM NO_ERROR), and what it sent meanwhile is read and dropped.
  if (!queue.settled) queue.fail(new ConnectError('the call is over', Code.Canceled));
  stopSending(req, true);
  if (req.isPaused()) req.resume();
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}
