/**
 * The daemon as a forward proxy for HTTPS (`HTTPS_PROXY=http://localhost:16540`):
 * a `CONNECT host:port` for a mapped host is answered `200 Connection
 * Established` and its socket handed to the HTTPS server, which terminates TLS
 * with a certificate for that host signed by the local CA (SNI, see `serve()`'s
 * `certificateFor`); the requests inside then reach the endpoint by their Host.
 * A CONNECT to any other host is refused with `HOST_NOT_MOCKED`, or, with
 * `MOCKPOINT_PROXY_PASS_THROUGH`, tunnelled as bytes to the network when the
 * proxy allow list allows it (`pass-through.ts`).
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { hostNotMocked, samePort } from '../../answer/host-routing.js';
import type { MockpointApp } from '../../http/create-app.js';
import { isAllowedHost } from '../../http/host-guard.js';
import { passThroughConnect } from './pass-through.js';
import { refuseRaw } from './raw-answer.js';

/** A CONNECT target longer than this (a name is at most 253 characters, plus a port) is refused unread. */
const MAX_TARGET = 300;

/** The ports `server` and `secure` listen on. */
function ownPorts(server: Server, secure: Server): number[] {
  return [server.address(), secure.address()].flatMap((address) =>
    address !== null && typeof address === 'object' ? [address.port] : [],
  );
}

/**
 * Answers `CONNECT` on `server` (plain HTTP) by handing each tunnel to a mapped
 * host, or to the daemon's own name, to `secure` (the HTTPS server).
 */
export function acceptConnect(server: Server, secure: Server, app: MockpointApp): void {
  const { hosts, options } = app.mockpoint;
  server.on('connect', (req, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = req.url ?? '';
    const mapped = target.length <= MAX_TARGET && hosts.size !== 0 ? hosts.lookup(target) : undefined;
    const own = mapped === undefined && target.length <= MAX_TARGET && isAllowedHost(target, options.allowedHosts, 443);
    if (
      mapped === undefined &&
      options.proxyPassThrough &&
      target.length <= MAX_TARGET &&
      // The daemon's own address at a port it does not serve here is another server: passed through.
      (!own || !ownPorts(server, secure).some((port) => samePort(target, 443, port)))
    ) {
      passThroughConnect(target, socket, head, app.mockpoint.proxy.allowHosts);
      return;
    }
    if (mapped === undefined && !own) {
      const { body } = hostNotMocked(target.slice(0, MAX_TARGET), hosts) as { body: string };
      refuseRaw(socket, 403, body);
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.byteLength > 0) socket.unshift(head);
    // The HTTPS server takes it from here as one of its own connections (TLS, ALPN, SNI).
    secure.emit('connection', socket);
  });
}
