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

/** The delivery's URL as an absolute http(s) URL, or `INVALID_DELIVERY_URL`. */
export function deliveryUrl(url: unknown): URL {
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
  return target;
}

/** Why `target` is not sent to (its host neither loopback nor listed), or `undefined`: it may be. */
export function hostRefusal(target: URL, allowHosts: readonly string[]): string | undefined {
  const hostname = normalHost(target.hostname);
  if (isLoopbackHost(hostname) || hostAllowed(hostname, urlPort(target), allowHosts)) return undefined;
  return `deliveries may only go to loopback addresses (127.0.0.1, ::1, localhost) unless the host is listed in MOCKPOINT_DELIVERY_ALLOW_HOSTS; "${hostname}" is not`;
}

/** How to have a delivery to `target` sent: the allow list entry it needs. */
export function allowHint(target: URL): string {
  const hostname = normalHost(target.hostname);
  const entry = hostname.includes(':') ? `[${hostname}]` : hostname;
  return `list the host in MOCKPOINT_DELIVERY_ALLOW_HOSTS (e.g. MOCKPOINT_DELIVERY_ALLOW_HOSTS=${entry}, or --delivery-allow-hosts ${entry}) and restart the daemon to send there`;
}

/**
 * The URL a delivery may be sent to, or a coded refusal: `INVALID_DELIVERY_URL`
 * (not an absolute http(s) URL) or `DELIVERY_HOST_NOT_ALLOWED`.
 */
export function checkDeliveryTarget(url: unknown, allowHosts: readonly string[]): URL {
  const target = deliveryUrl(url);
  const refusal = hostRefusal(target, allowHosts);
  if (refusal !== undefined) throw new MockpointError('DELIVERY_HOST_NOT_ALLOWED', refusal);
  return target;
}

const PRIVATE_V4: readonly [number, number][] = [
  // [first octets as a 16-bit prefix, prefix length in bits]
  [0x0a00, 8], // 10.0.0.0/8
  [0xac10, 12], // 172.16.0.0/12
  [0xc0a8, 16], // 192.168.0.0/16
  [0xa9fe, 16], // 169.254.0.0/16, link-local (the metadata address 169.254.169.254)
];
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** The IPv4 address `name` stands for (a dotted literal or an IPv4-mapped IPv6 one), as 32 bits. */
function ipv4Of(name: string): number | undefined {
  const dotted = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (dotted !== null) return dotted.slice(1).reduce((all, part) => all * 256 + Number(part), 0);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(name);
  if (mapped !== null)
    return Number.parseInt(mapped[1] as string, 16) * 65536 + Number.parseInt(mapped[2] as string, 16);
  return undefined;
}

/**
 * Why a provider refuses `hostname` as a webhook receiver and no delivery should ever go there
 * unlisted: a private network (RFC 1918, IPv6 unique local), link-local, or a cloud metadata
 * address. `undefined`: a host a provider takes.
 */
function unreachableHost(hostname: string): string | undefined {
  const name = normalHost(hostname);
  if (METADATA_NAMES.has(name) || name === '100.100.100.200' || name === 'fd00:ec2::254') {
    return `"${name}" is a cloud metadata address`;
  }
  const v4 = ipv4Of(name);
  if (v4 !== undefined) {
    const high = Math.floor(v4 / 65536);
    for (const [prefix, bits] of PRIVATE_V4) {
      const shift = 16 - Math.min(bits, 16);
      if (high >> shift === prefix >> shift) return `"${name}" is a private or link-local address`;
    }
    return undefined;
  }
  if (/^fe[89ab][0-9a-f]:/.test(name)) return `"${name}" is a link-local address`;
  if (/^f[cd][0-9a-f]{2}:/.test(name)) return `"${name}" is a private (unique local) address`;
  return undefined;
}

/**
 * A webhook subscription's receiver (a twin's Stripe endpoint, GitHub hook), checked when it is
 * made or changed: what the provider takes is taken, whether or not the deliveries may go there
 * (a delivery to a host not allowed is recorded as `not-sent`, see delivery-worker.ts). Refused
 * (`INVALID_DELIVERY_URL`): not an http(s) URL, and private, link-local or metadata addresses,
 * which the providers refuse too, unless listed in `allowHosts`.
 */
export function checkSubscriptionTarget(url: unknown, allowHosts: readonly string[]): URL {
  const target = deliveryUrl(url);
  const hostname = normalHost(target.hostname);
  const unreachable = unreachableHost(hostname);
  if (unreachable !== undefined && !hostAllowed(hostname, urlPort(target), allowHosts)) {
    throw new MockpointError(
      'INVALID_DELIVERY_URL',
      `${unreachable}, never a webhook receiver unless listed in MOCKPOINT_DELIVERY_ALLOW_HOSTS`,
    );
  }
  return target;
}
