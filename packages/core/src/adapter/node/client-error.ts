/**
 * What a connection whose request Node's HTTP/1.1 parser refused is answered: a
 * request line past the header limit (16 KiB) is `414 URI_TOO_LONG`, other headers
 * past it `431 HEADERS_TOO_LARGE`, each in mockpoint's error JSON; the rest as Node
 * answers them (`400`, `408`, `413`). Node's own handling wrote `431` and destroyed
 * the socket while the client was still sending: with a URL of 100,000 characters
 * the reset reached the client before the status (a connection reset, no answer).
 * Here the answer is written and the connection ended, and what the client still
 * sends is read and dropped, bounded in bytes and time, so it reads the answer.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MockpointError } from '../../registry/errors.js';

/** How much of the rest of a refused request is read and dropped, at most, before the connection is destroyed. */
const DRAIN_BYTES = 1024 * 1024;
/** How long the rest is read and dropped, at most. */
const DRAIN_MS = 2_000;

/** A parser error as Node gives it to `clientError`: the chunk being parsed when it failed. */
type ParseError = Error & { code?: string; rawPacket?: Buffer };

/** A request line begins with a method token and a space (RFC 9112 §3). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;
/** A request line at least this long, or with no end in the chunk, is what passed the limit. */
const LONG_LINE = 8 * 1024;

/** Whether the header overflow is the request line's: the chunk starts one, and it does not end soon. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (packet === undefined) return false;
  const start = packet.subarray(0, 64).toString('latin1');
  if (!REQUEST_LINE.test(start)) return false;
  const end = packet.indexOf(0x0a);
  return end === -1 || end >= LONG_LINE;
}

/** The raw answer to `error`: status line, headers and body. */
function answerOf(error: ParseError): string {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const refused = requestLineTooLong(error.rawPacket)
      ? new MockpointError(
          'URI_TOO_LONG',
          'the request line is longer than the 16 KiB this server reads of a request head; send a shorter URL (the query in a POST body)',
        )
      : new MockpointError(
          'HEADERS_TOO_LARGE',
          'the request headers are larger than the 16 KiB this server reads of a request head; send fewer or shorter headers',
        );
    const body = JSON.stringify({ success: false, error: { code: refused.code, message: refused.message } });
    const reason = refused.status === 414 ? 'URI Too Long' : 'Request Header Fields Too Large';
    return `HTTP/1.1 ${refused.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  }
  // As Node answers them without a listener.
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';
  return 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
}

/** Ends `socket` after `answer`, reading and dropping what still comes, up to {@link DRAIN_BYTES} and {@link DRAIN_MS}. */
function endDraining(socket: Duplex, answer: string): void {
  let drained = 0;
  const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
  timer.unref?.();
  socket.on('close', () => clearTimeout(timer));
  socket.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_BYTES) socket.destroy();
  });
  socket.end(answer);
}

/** Answers requests `server`'s HTTP/1.1 parser refuses (see the module's comment). */
export function answerClientErrors(server: Server): void {
  // The parser keeps failing on what still comes: each socket is answered once.
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: ParseError, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // Later failures of a socket being ended or drained need a listener, or they would be thrown.
    socket.on('error', () => socket.destroy());
    // As Node: no answer when one is being sent already on this connection (it would corrupt it).
    const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent === true) {
      socket.destroy();
      return;
    }
    endDraining(socket, answerOf(error));
  });
}
