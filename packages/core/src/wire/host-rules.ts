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

/** The rule `entry` stands for, or `undefined` when it is none of {@link HOST_RULE_FORMS}. */
export function parseHostRule(entry: string): HostRule | undefined {
  let text = entry.trim().toLowerCase();
  let port: number | undefined;
  const colons = text.split(':').length - 1;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return undefined;
    const rest = text.slice(end + 1);
    if (rest !== '') {
      if (!rest.startsWith(':') || !PORT.test(rest.slice(1))) return undefined;
      port = Number(rest.slice(1));
    }
    text = text.slice(1, end);
  } else if (colons === 1) {
    const at = text.indexOf(':');
    if (!PORT.test(text.slice(at + 1))) return undefined;
    port = Number(text.slice(at + 1));
    text = text.slice(0, at);
  }
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (text.includes(':')) {
    const address = ipv6(text);
    return address === undefined ? undefined : { host: address, suffix: false, port };
  }
  const suffix = text.startsWith('.');
  const host = (suffix ? text.slice(1) : text).replace(/\.$/, '');
  return NAME.test(host) ? { host, suffix, port } : undefined;
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
