/**
 * The daemon as a forward proxy for tunnels (`HTTPS_PROXY=http://localhost:16540`,
 * and undici's `EnvHttpProxyAgent`, which tunnels `http://` targets too): a
 * `CONNECT host:port` for a mapped host (or the daemon's own name) is answered
 * `200 Connection Established`, and what the client sends inside decides who
 * takes the connection: a TLS handshake goes to the HTTPS server (with `--https`),
 * which terminates TLS with a certificate for that host signed by the local CA
 * (SNI, see `serve()`'s `certificateFor`); anything else is plain HTTP, read by
 * the daemon's own HTTP server. Either way the requests inside reach the endpoint
 * by their Host. Without `--https` a tunnel for TLS cannot be answered: a
 * `CONNECT` to port 443 is refused before the tunnel with `501
 * HTTPS_NOT_ENABLED`, and a TLS handshake in a tunnel to another port is cut.
 * A `CONNECT` to any other host is refused with `HOST_NOT_MOCKED`, or, with
 * `MOCKPOINT_PROXY_PASS_THROUGH`, tunnelled as bytes to the network when the
 * proxy allow list allows it (`pass-through.ts`; no `--https` needed).
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorAnswer } from '../../answer/endpoint-answer.js';
import { isAllowedHost } from '../../hosts/host-guard.js';
import { hostNotMocked, samePort } from '../../hosts/host-routing.js';
import type { MockpointApp } from '../../http/create-app.js';
import { passThroughConnect } from './pass-through.js';
import { refuseRaw } from './raw-answer.js';

/** A CONNECT target longer than this (a name is at most 253 characters, plus a port) is refused unread. */
const MAX_TARGET = 300;

/** The first byte of a TLS record carrying a handshake (a ClientHello). */
const TLS_HANDSHAKE = 0x16;

/** The ports the servers listen on. */
function ownPorts(servers: readonly (Server | undefined)[]): number[] {
  return servers.flatMap((server) => {
    const address = server?.address();
    return address !== null && typeof address === 'object' ? [address.port] : [];
  });
}

/** The refusal of a tunnel for TLS by a daemon without `--https`. */
function httpsNotEnabled(target: string): string {
  const { body } = errorAnswer(
    501,
    'HTTPS_NOT_ENABLED',
    `CONNECT ${target.slice(0, 100)} is a tunnel for TLS, and this daemon serves no HTTPS: start it with --https (MOCKPOINT_HTTPS=1) and trust its CA, or send http:// URLs through the proxy`,
  ) as { body: string };
  return body;
}

/**
 * Hands an open tunnel to the server that speaks what its client sends first:
 * a TLS handshake to `secure`, anything else to `plain` (HTTP/1.1 inside the tunnel).
 */
function handOver(socket: Duplex, head: Buffer, plain: Server, secure: Server | undefined): void {
  const route = (first: Buffer): void => {
    socket.unshift(first);
    if (first[0] === TLS_HANDSHAKE) {
      // No certificate to answer a TLS client with: cut rather than answer HTTP it cannot read.
      if (secure === undefined) socket.destroy();
      else secure.emit('connection', socket);
      return;
    }
    plain.emit('connection', socket);
    socket.resume();
  };
  if (head.byteLength > 0) {
    route(head);
    return;
  }
  socket.once('data', (first: Buffer) => {
    socket.pause();
    route(first);
  });
}

/**
 * Answers `CONNECT` on `server` (the daemon's plain HTTP port): a tunnel to a
 * mapped host, or to the daemon's own name, is served inside by `secure` (the
 * HTTPS server, when there is one) or by `server` itself (see the module).
 */
export function acceptConnect(server: Server, secure: Server | undefined, app: MockpointApp): void {
  const { hosts, options } = app.mockpoint;
  server.on('connect', (req, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = req.url ?? '';
    const bounded = target.length <= MAX_TARGET;
    const mapped = bounded && hosts.size !== 0 ? hosts.lookup(target) : undefined;
    const own = mapped === undefined && bounded && isAllowedHost(target, options.allowedHosts, 443);
    if (
      mapped === undefined &&
      options.proxyPassThrough &&
      bounded &&
      // The daemon's own address at a port it does not serve here is another server: passed through.
      (!own || !ownPorts([server, secure]).some((port) => samePort(target, 443, port)))
    ) {
      passThroughConnect(target, socket, head, app.mockpoint.proxy.allowHosts);
      return;
    }
    if (mapped === undefined && !own) {
      const { body } = hostNotMocked(target.slice(0, MAX_TARGET), hosts) as { body: string };
      refuseRaw(socket, 403, body);
      return;
    }
    // Port 443 is TLS: without --https say so before the tunnel, while the client can still read it.
    if (secure === undefined && samePort(target, 443, 443)) {
      refuseRaw(socket, 501, httpsNotEnabled(target));
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    handOver(socket, head, server, secure);
  });
}
