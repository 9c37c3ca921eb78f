/**
 * The one rule of every host allow list (`MOCKPOINT_ALLOWED_HOSTS`,
 * `MOCKPOINT_DELIVERY_ALLOW_HOSTS`, `MOCKPOINT_PROXY_ALLOW_HOSTS`). An entry is
 *
 * - a name, `mocks.internal`: that name only;
 * - `.example.com`: `example.com` and every name below it;
 * - an IP address, `127.0.0.1`, `::1` or `[::1]` (IPv6 compared by value);
 * - any of these with `:port` (`127.0.0.1:8080`, `[::1]:8080`, `.example.com:8443`):
 *   that port only. Without a port, every port of the host.
 *
 * Names and addresses are compared as URL parsers write them: lower case, no
 * trailing dot, IPv6 without brackets and in its shortest form.
 *
 * @module
 */

/** A dotted IPv4 address as a Host names it (`127.0.0.1`); each part 1–3 digits, not checked against 255. */
export const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** An allow-list entry, parsed. */
export interface HostRule {
  /** The host (normalised); for a suffix rule, the name below which all are allowed. */
  host: string;
  /** `.example.com`: the name and every name below it. */
  suffix: boolean;
  /** The one port allowed; `undefined`: every port. */
  port: number | undefined;
}

/** What an entry may be, for error messages. */
export const HOST_RULE_FORMS =
  'a name (mocks.example.com), .example.com for it and its subdomains, or an IP address (127.0.0.1, ::1 or [::1]), each with an optional :port ([::1]:8080)';

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const PORT = /^\d{1,5}$/;

/** The shortest form of an IPv6 address (no brackets), or `undefined` when `text` is none. */
function ipv6(text: string): string | undefined {
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * A host as the lists compare it: lower case, no brackets around IPv6 (which is
 * written in its shortest form), no trailing dot.
 */
export function normalHost(hostname: string): string {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return host.includes(':') ? (ipv6(host) ?? host) : host;
}

/**
 * `text` (an allow-list entry or a Host header value) split into its host, as
 * {@link normalHost} writes it, and the text after its port colon (`undefined`:
 * none): `[::1]:8080`, `Example.COM.:443`, `.example.com:8443`, `::1` (an IPv6
 * address without brackets has no port). `undefined` when a `[` is not closed,
 * or something other than `:port` follows the `]`.
 */
export function splitHostPort(text: string): { host: string; port: string | undefined } | undefined {
  const value = text.trim();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    const rest = value.slice(end + 1);
    if (end === -1 || (rest !== '' && !rest.startsWith(':'))) return undefined;
    return { host: normalHost(value.slice(1, end)), port: rest === '' ? undefined : rest.slice(1) };
  }
  const colon = value.indexOf(':');
  if (colon === -1 || colon !== value.lastIndexOf(':')) return { host: normalHost(value), port: undefined };
  return { host: normalHost(value.slice(0, colon)), port: value.slice(colon + 1) };
}

/** The rule `entry` stands for, or `undefined` when it is none of {@link HOST_RULE_FORMS}. */
export function parseHostRule(entry: string): HostRule | undefined {
  const split = splitHostPort(entry);
  if (split === undefined) return undefined;
  const { host, port: portText } = split;
  const port = portText === undefined ? undefined : PORT.test(portText) ? Number(portText) : 0;
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (host.includes(':')) {
    // normalHost wrote a valid IPv6 address in its shortest form; anything else with a colon is none.
    return ipv6(host) === host ? { host, suffix: false, port } : undefined;
  }
  const suffix = host.startsWith('.');
  const name = suffix ? host.slice(1) : host;
  return NAME.test(name) ? { host: name, suffix, port } : undefined;
}

/** True when `entry` is a valid allow-list entry. */
export function isHostRule(entry: string): boolean {
  return parseHostRule(entry) !== undefined;
}

/** True when `rule` allows `host` (normalised) at `port`. */
function allows(rule: HostRule, host: string, port: number | undefined): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  return host === rule.host || (rule.suffix && host.endsWith(`.${rule.host}`));
}

/**
 * True when one of `rules` allows `hostname` at `port` (`undefined`: the port is
 * unknown, and only rules without a port can allow it). Invalid entries allow nothing.
 */
export function hostAllowed(hostname: string, port: number | undefined, rules: readonly string[]): boolean {
  const host = normalHost(hostname);
  return rules.some((entry) => {
    const rule = parseHostRule(entry);
    return rule !== undefined && allows(rule, host, port);
  });
}

/**
 * True when one of `rules` lists `address` itself (not under a `.suffix` rule) at
 * `port`: what a non-public address needs before a proxy connects to it.
 */
export function addressListed(address: string, port: number | undefined, rules: readonly string[]): boolean {
  const host = normalHost(address);
  return rules.some((entry) => {
    const rule = parseHostRule(entry);
    return rule !== undefined && !rule.suffix && allows(rule, host, port);
  });
}

/** The port a URL goes to: its own, else its scheme's (80, 443). */
export function urlPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
