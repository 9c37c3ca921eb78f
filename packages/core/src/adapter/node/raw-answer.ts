/**
 * Answers written by hand on a socket that `node:http` no longer owns: a
 * request that asked to upgrade, a `CONNECT` the proxy refuses. One HTTP/1.1
 * writer for them all; the connection is never kept (`connection: close`).
 *
 * @module
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** An HTTP/1.1 head: the status line, `headers` (a `connection` among them left out) and `connection: close`. */
export function rawHead(status: number, headers: Readonly<Record<string, string | readonly string[]>>): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'connection') continue;
    for (const one of typeof value === 'string' ? [value] : value) head += `${name}: ${one}\r\n`;
  }
  return `${head}connection: close\r\n\r\n`;
}

/** Writes a whole answer (head and body) on the raw socket and ends it; nothing when the socket is gone. */
export function writeRaw(
  socket: Duplex,
  status: number,
  headers: Readonly<Record<string, string | readonly string[]>>,
  body: string | Uint8Array | null,
): void {
  if (socket.destroyed) return;
  const head = rawHead(status, headers);
  if (body === null || typeof body === 'string') {
    socket.end(body === null ? head : head + body);
    return;
  }
  socket.write(head);
  socket.end(body);
}

/** Writes a refusal with a JSON `body` (an error's) on the raw socket and ends it. */
export function refuseRaw(socket: Duplex, status: number, body: string): void {
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  };
  writeRaw(socket, status, headers, body);
}
