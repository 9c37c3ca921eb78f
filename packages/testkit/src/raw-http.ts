/**
 * Raw HTTP/1.1 exchanges over a real socket, for tests that must see exactly
 * what a server writes: each byte as it arrives, chunked framing, and whether
 * the body ended normally or the connection broke; and the listening server
 * they talk to.
 *
 * @module
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/** A raw HTTP/1.1 exchange: what arrived so far, and waits for more. */
export interface Exchange {
  /** Everything received so far (latin1: one character per byte). */
  readonly text: () => string;
  /** Resolves once `needle` has arrived (bounded by the test's timeout). */
  until(needle: string): Promise<void>;
  /** Resolves once the whole response has arrived. */
  complete(): Promise<void>;
  /** Resolves with how the connection ended: 'end' (FIN or close) or 'error'. */
  readonly ended: Promise<'end' | 'error'>;
  readonly socket: Socket;
}

const open = new Set<Socket>();
const servers = new Set<Server>();

/** Serves `listener` on 127.0.0.1 at a free port and resolves with the port; {@link closeListeners} closes it. */
export async function listen(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes every server {@link listen} started, cutting the connections still open (call it in `afterEach`). */
export async function closeListeners(): Promise<void> {
  const closing = [...servers];
  servers.clear();
  for (const server of closing) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Destroys every socket {@link exchange} opened (call it in `afterEach`). */
export function closeExchanges(): void {
  for (const socket of open) socket.destroy();
  open.clear();
}

/** Sends `method path` with `headers` to 127.0.0.1:`port` and follows the response. */
export function exchange(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Exchange {
  const socket = connect(port, '127.0.0.1');
  open.add(socket);
  let received = '';
  const waiters: { done: (text: string) => boolean; resolve: () => void }[] = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
    for (const waiter of [...waiters]) {
      if (waiter.done(received)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const ended = new Promise<'end' | 'error'>((resolve) => {
    socket.on('end', () => resolve('end'));
    socket.on('error', () => resolve('error'));
    socket.on('close', () => resolve('end'));
  });
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const until = (done: (text: string) => boolean): Promise<void> =>
    done(received) ? Promise.resolve() : new Promise((resolve) => waiters.push({ done, resolve }));
  return {
    text: () => received,
    socket,
    ended,
    until: (needle) => until((text) => text.includes(needle)),
    complete: () => until((text) => text.includes('\r\n\r\n') && dechunk(text).complete),
  };
}

/**
 * The body of a response: a chunked one's chunks joined, and whether the
 * terminating chunk came (or, with a Content-Length, whether all of it came).
 */
export function dechunk(raw: string): { head: string; body: string; complete: boolean } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  let rest = raw.slice(split + 4);
  const length = /\r\ncontent-length: (\d+)/i.exec(head);
  if (length !== null) {
    const size = Number(length[1]);
    return { head, body: rest.slice(0, size), complete: rest.length >= size };
  }
  let body = '';
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol === -1) return { head, body, complete: false };
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (size === 0) return { head, body, complete: true };
    body += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
