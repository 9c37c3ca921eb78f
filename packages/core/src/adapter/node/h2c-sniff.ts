/**
 * HTTP/2 cleartext with prior knowledge (h2c, what a gRPC client speaks to a
 * plain `host:port`) on the plain HTTP port, beside HTTP/1.1.
 *
 * Each new connection is read once: when its first bytes are the HTTP/2
 * connection preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`), the socket goes to
 * an `http2` server, else to the `node:http` server's own connection handling,
 * the bytes read put back first (`unshift`) either way. Nothing changes per
 * request: an HTTP/1.1 connection is handled by Node exactly as before, from
 * its first byte on. A connection that sends nothing within `firstByteMs` is
 * handed to `node:http`, whose own timeouts then close it (408), as they did.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Http2Server } from 'node:http2';
import type { Socket } from 'node:net';

/** The client's HTTP/2 connection preface (RFC 9113 §3.4). */
export const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** `true`: the bytes are the preface; `false`: they are not; `undefined`: too few to tell yet. */
export function isH2Preface(head: Uint8Array): boolean | undefined {
  const length = Math.min(head.length, H2_PREFACE.length);
  for (let i = 0; i < length; i++) if (head[i] !== H2_PREFACE[i]) return false;
  return length === H2_PREFACE.length ? true : undefined;
}

type ConnectionListener = (this: Server, socket: Socket) => void;

/**
 * Makes `server` hand connections that open with the HTTP/2 preface to the
 * `http2` server `makeH2c` makes on the first of them (see the module comment). Call it before adding other `connection`
 * listeners: those added later see every connection at once, as before.
 */
export function sniffH2c(server: Server, makeH2c: () => Http2Server, firstByteMs: number): void {
  let h2c: Http2Server | undefined;
  const http1 = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');
  const toHttp1 = (socket: Socket) => {
    for (const listener of http1) listener.call(server, socket);
  };
  server.on('connection', (socket: Socket) => {
    let head: Buffer | undefined;
    const handOff = (isH2: boolean) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.pause();
      if (head !== undefined) socket.unshift(head);
      if (isH2) {
        h2c ??= makeH2c();
        h2c.emit('connection', socket);
      } else {
        toHttp1(socket);
        socket.resume();
      }
    };
    const onData = (chunk: Buffer) => {
      head = head === undefined ? chunk : Buffer.concat([head, chunk]);
      const isH2 = isH2Preface(head);
      if (isH2 !== undefined) handOff(isH2);
    };
    // Until handed off, a reset connection is only closed (no listener would crash the process).
    const onError = () => socket.destroy();
    const timer = setTimeout(() => handOff(false), firstByteMs);
    socket.on('error', onError);
    socket.on('data', onData);
    socket.once('close', () => clearTimeout(timer));
  });
}
