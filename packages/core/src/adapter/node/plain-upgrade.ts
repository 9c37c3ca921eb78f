/**
 * A request that offers to upgrade to anything but WebSocket (`curl --http2`
 * sends `Upgrade: h2c` with every request), answered as plain HTTP/1.1.
 *
 * Node 20 sends every request with `Connection: upgrade` to the server's
 * `'upgrade'` event once that has a listener (it has no per-request choice:
 * `shouldUpgradeCallback` came in Node 22/24), and hands over the socket
 * detached from its HTTP parser, with the bytes read past the head in `head`.
 * So the request is answered here by the server's own request listener with a
 * `ServerResponse` on that socket, and the connection is closed after it
 * (`connection: close`: no parser is left to read a next request).
 *
 * Node's parser skipped the body, so a body is replayed honestly when its
 * length is declared (`head`, then the socket, up to Content-Length) into a
 * fresh `IncomingMessage`; a chunked body would need a decoder of its own and
 * is refused with `UPGRADE_BODY_UNSUPPORTED` rather than lost.
 *
 * @module
 */
import { IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorAnswer, type RespondAnswer } from '../../answer/endpoint-answer.js';
import { rawHeader } from '../../codec/raw-headers.js';

/** The body's framing from the raw headers: none, a declared length, or chunked (a Transfer-Encoding). */
function bodyLength(rawHeaders: readonly string[]): number | 'chunked' {
  if (rawHeader(rawHeaders, 'transfer-encoding') !== undefined) return 'chunked';
  // Node's parser has refused a malformed or conflicting Content-Length already.
  return Number(rawHeader(rawHeaders, 'content-length') ?? 0);
}

/** A request with the head of `req` whose body is the next `length` bytes: `head`, then the socket's. */
function replayed(req: IncomingMessage, socket: Socket, head: Buffer, length: number, timeoutMs: number) {
  const message = new IncomingMessage(socket);
  message.method = req.method as string;
  message.url = req.url as string;
  message.httpVersion = req.httpVersion;
  message.httpVersionMajor = req.httpVersionMajor;
  message.httpVersionMinor = req.httpVersionMinor;
  message.rawHeaders = req.rawHeaders;
  message.headers = req.headers;
  let remaining = length;
  const done = (): void => {
    socket.off('data', take);
    socket.off('close', gone);
    clearTimeout(timer);
  };
  const take = (chunk: Buffer): void => {
    const part = chunk.byteLength > remaining ? chunk.subarray(0, remaining) : chunk;
    remaining -= part.byteLength;
    // Back-pressure: the socket waits until the message is read (IncomingMessage._read resumes it).
    if (part.byteLength > 0 && !message.push(part)) socket.pause();
    if (remaining === 0) {
      done();
      // Bytes past the body (a pipelined request) are not read: the connection closes after the answer.
      socket.pause();
      message.complete = true;
      message.push(null);
    }
  };
  // A client that hangs up mid-body: the message is aborted, as Node's own would be.
  const gone = (): void => {
    done();
    message.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  };
  // The request timeout holds for the body still to come (Node's own check no longer sees this socket).
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  socket.on('close', gone);
  socket.on('data', take);
  if (head.byteLength > 0) take(head);
  return message;
}

/**
 * Answers `req` (a request that offered an upgrade other than WebSocket) with
 * `request`, the server's request listener, over HTTP/1.1 on `socket`, and
 * closes the connection after the answer.
 */
export function answerPlain(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  request: RequestListener,
  requestTimeoutMs: number,
): void {
  const tcp = socket as Socket;
  const length = bodyLength(req.rawHeaders);
  const message = typeof length === 'number' && length > 0 ? replayed(req, tcp, head, length, requestTimeoutMs) : req;
  const res = new ServerResponse(message);
  res.shouldKeepAlive = false;
  res.assignSocket(tcp);
  res.once('finish', () => {
    res.detachSocket(tcp);
    // As Node's server does after a response with `connection: close`.
    tcp.end(() => tcp.destroy());
    process.nextTick(() => res.emit('close'));
  });
  if (length === 'chunked') {
    const refused = errorAnswer(
      400,
      'UPGRADE_BODY_UNSUPPORTED',
      `a request offering "Upgrade: ${req.headers.upgrade}" with a chunked body (Transfer-Encoding) is not read; send it with a Content-Length, or without the Upgrade header`,
      { head: req.method === 'HEAD' },
    ) as RespondAnswer;
    res.writeHead(refused.status, refused.headers as Record<string, string>);
    res.end(refused.body);
    return;
  }
  request(message, res);
}
