/**
 * Which addresses a proxy may connect to. A shared daemon must not become a way
 * into the network it runs in (SSRF): a loopback, private, link-local or other
 * non-public address is reached only when that address itself is listed in the
 * allow list, whatever name led to it — so a listed DNS name that resolves to
 * `10.0.0.5` or `127.0.0.1` is refused. Pure functions: the transport resolves
 * the name and asks here for every address before it connects to it.
 *
 * @module
 */

import { addressListed, normalHost } from '../../pattern/host-rules.js';
import { MockpointError } from '../../registry/errors.js';

/** The four bytes of an IPv4 address in dotted form, or `undefined`. */
function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or `undefined`. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  const tail = address.lastIndexOf(':');
  const v4 = address.includes('.') ? ipv4Bytes(address.slice(tail + 1)) : undefined;
  if (address.includes('.')) {
    if (v4 === undefined) return undefined;
    address = `${address.slice(0, tail + 1)}${((v4[0] as number) * 256 + (v4[1] as number)).toString(16)}:${((v4[2] as number) * 256 + (v4[3] as number)).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string) => (half === '' ? [] : half.split(':').map((group) => Number.parseInt(group, 16)));
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

function ipv4Public(b: number[]): boolean {
  const [a = 0, b1 = 0, c = 0] = b;
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 100 && b1 >= 64 && b1 <= 127) return false; // shared address space (CGNAT)
  if (a === 169 && b1 === 254) return false; // link-local (cloud metadata)
  if (a === 172 && b1 >= 16 && b1 <= 31) return false; // private
  if (a === 192 && b1 === 168) return false; // private
  if (a === 192 && b1 === 0 && c === 0) return false; // IETF protocol assignments
  if (a === 198 && (b1 === 18 || b1 === 19)) return false; // benchmarking
  return a < 224; // multicast, reserved and broadcast above
}

/**
 * The kind of `address` when it is not a public unicast address (`loopback`,
 * `private`, `link-local`, `reserved`), `undefined` when it is public. Text that
 * is not an IP address is `reserved` (never connected to unlisted).
 */
export function nonPublicKind(address: string): string | undefined {
  const host = normalHost(address);
  const v4 = ipv4Bytes(host);
  if (v4 !== undefined) {
    if (v4[0] === 127) return 'loopback';
    if (v4[0] === 169 && v4[1] === 254) return 'link-local';
    return ipv4Public(v4) ? undefined : 'private';
  }
  const g = ipv6Groups(host);
  if (g === undefined) return 'reserved';
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 0) return 'reserved';
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
  const mapped = zeroHead && g5 === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || nat64) return nonPublicKind(`${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (zeroHead) return 'reserved'; // IPv4-compatible and other unassigned forms
  return undefined;
}

/**
 * Checks an address `hostname` resolved to before connecting to it at `port`: a
 * non-public one must itself be listed in `allowHosts` (without a port, or with
 * this one; IPv6 compared by value, `::ffff:127.0.0.1` and `127.0.0.1` apart);
 * `PROXY_HOST_NOT_ALLOWED` otherwise.
 */
export function checkUpstreamAddress(
  hostname: string,
  address: string,
  port: number,
  allowHosts: readonly string[],
): void {
  const kind = nonPublicKind(address);
  if (kind === undefined || addressListed(address, port, allowHosts)) return;
  const host = normalHost(address);
  const via = normalHost(hostname) === host ? `${host} is` : `${hostname} resolves to ${address},`;
  const listed = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  throw new MockpointError(
    'PROXY_HOST_NOT_ALLOWED',
    `${via} a ${kind} address; a proxy reaches one only when the address itself is listed in MOCKPOINT_PROXY_ALLOW_HOSTS (e.g. ${listed} for this port only, or ${host} for all)`,
  );
}
