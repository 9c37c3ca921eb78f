/**
 * Where a delivery may go. A shared daemon must not become a way to reach other
 * machines (SSRF): by default only loopback addresses are allowed, given
 * literally (`127.0.0.0/8`, `::1`) or as `localhost`; any other host must be
 * listed (`MOCKPOINT_DELIVERY_ALLOW_HOSTS`). `localhost` is a name the system
 * resolves, so the Node transport checks that it resolves to loopback addresses
 * only (node-delivery-send.ts). Names below it (`a.localhost`) are not taken as
 * loopback: RFC 6761 only asks resolvers to keep them on loopback, and many
 * (glibc without systemd-resolved) pass them to DNS, whose answer could be any
 * address; they are allowed only when listed, like any name. Redirects are never
 * followed (see the attempt), so a receiver cannot send an attempt elsewhere.
 *
 * @module
 */

import { hostAllowed, normalHost, urlPort } from '../pattern/host-rules.js';
import { MockpointError } from '../registry/errors.js';

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * True for `localhost` (resolved to loopback only, see above) and loopback IP
 * literals, the host read as the allow lists read it (pattern/host-rules.ts `normalHost`).
 */
export function isLoopbackHost(hostname: string): boolean {
  const name = normalHost(hostname);
  return (
    name === 'localhost' ||
    IPV4_LOOPBACK.test(name) ||
    name === '::1' ||
    /^::ffff:127\./.test(name) ||
    /^::ffff:7f[0-9a-f]{2}:/.test(name)
  );
}

/**
 * The URL a delivery may be sent to, or a coded refusal: `INVALID_DELIVERY_URL`
 * (not an absolute http(s) URL) or `DELIVERY_HOST_NOT_ALLOWED`.
 */
export function checkDeliveryTarget(url: unknown, allowHosts: readonly string[]): URL {
  if (typeof url !== 'string' || !URL.canParse(url)) {
    throw new MockpointError('INVALID_DELIVERY_URL', 'url must be an absolute http:// or https:// URL');
  }
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new MockpointError(
      'INVALID_DELIVERY_URL',
      `url must be http:// or https://, not ${target.protocol.slice(0, -1)}://`,
    );
  }
  const hostname = normalHost(target.hostname);
  if (isLoopbackHost(hostname) || hostAllowed(hostname, urlPort(target), allowHosts)) return target;
  throw new MockpointError(
    'DELIVERY_HOST_NOT_ALLOWED',
    `deliveries may only go to loopback addresses (127.0.0.1, ::1, localhost) unless the host is listed in MOCKPOINT_DELIVERY_ALLOW_HOSTS; "${hostname}" is not`,
  );
}
