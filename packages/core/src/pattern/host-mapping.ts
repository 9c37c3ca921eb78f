/**
 * Hosts that pick an endpoint (`MOCKPOINT_HOSTS`, a mock file's `hosts:`, the
 * admin API): `api.example.com=api`, `*.example.com=web`. A request whose
 * Host maps to a name is answered by that endpoint with its whole path as the
 * subpath. The text rules live here; the table is `hosts/host-table.ts`.
 *
 * @module
 */

import { MockpointError } from '../registry/errors.js';
import { isValidName } from '../registry/rules.js';
import { IPV4 } from './host-rules.js';

/** What a host pattern may be, for error messages. */
export const HOST_PATTERN_FORMS =
  'a host name (api.example.com) or *. and a name for every name below it (*.example.com); not an IP address or localhost, no port';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** A DNS name is at most 253 characters; a Host header longer than this plus a port maps to nothing. */
const MAX_HOST = 253;
const MAX_HOST_HEADER = MAX_HOST + 7;

/**
 * `text` as a host pattern (lower case, no trailing dot), or `undefined` when it
 * is none of {@link HOST_PATTERN_FORMS}. IP addresses and `localhost` are refused:
 * they reach the admin API, which a mapped host never does.
 */
export function parseHostPattern(text: string): string | undefined {
  let host = text.trim().toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  if (name.length === 0 || name.length > MAX_HOST || !NAME.test(name)) return undefined;
  if (IPV4.test(name) || name === 'localhost' || name.endsWith('.localhost')) return undefined;
  return wildcard ? `*.${name}` : name;
}

/** Most hosts one endpoint may be given through the API or a mock file (`MOCKPOINT_HOSTS` is the daemon's: not bounded per name). */
export const MAX_HOSTS_PER_NAME = 100;

/**
 * Refuses a `hosts` list longer than {@link MAX_HOSTS_PER_NAME} with `INVALID_HOSTS`, naming the
 * limit (`details: { limit, count }`): the same answer from the admin API, a mock file and the table.
 */
export function checkHostCount(count: number): void {
  if (count <= MAX_HOSTS_PER_NAME) return;
  throw new MockpointError(
    'INVALID_HOSTS',
    `at most ${MAX_HOSTS_PER_NAME} hosts per endpoint; got ${count}: map fewer, or a *. pattern for the names below one`,
    { details: { limit: MAX_HOSTS_PER_NAME, count } },
  );
}

/** One mapping: a host pattern and the endpoint it picks. */
export interface HostMapping {
  host: string;
  name: string;
}

/** A mapping as `/api/hosts` lists it: where it came from besides the host and the name. */
export interface HostEntry extends HostMapping {
  /** `settings`: from `MOCKPOINT_HOSTS` (fixed); `api`: set through the admin API or a mock file. */
  source: 'settings' | 'api';
}

/**
 * A host taken from the endpoint that held it for another (`PUT …/hosts?move=true`,
 * a mock file that maps it: docs/https.md "Which wins").
 */
export interface HostMove {
  /** The host pattern. */
  host: string;
  /** The endpoint that held it. */
  from: string;
  /** The endpoint that holds it now. */
  to: string;
}

/**
 * `host=name,host=name` (the setting's text) as mappings, or a message naming
 * the first bad entry. A host given twice is refused: which name would win?
 */
export function parseHostMappings(text: string): HostMapping[] | { problem: string } {
  const mappings: HostMapping[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue;
    const eq = entry.indexOf('=');
    const host = eq === -1 ? undefined : parseHostPattern(entry.slice(0, eq));
    const name = eq === -1 ? '' : entry.slice(eq + 1).trim();
    if (host === undefined || !isValidName(name)) {
      return {
        problem: `"${entry.trim()}" is not host=name (the host ${HOST_PATTERN_FORMS}; the name 1-64 characters of A-Z a-z 0-9 _ -)`,
      };
    }
    if (seen.has(host)) return { problem: `"${host}" is mapped twice; map each host to one endpoint` };
    seen.add(host);
    mappings.push({ host, name });
  }
  return mappings;
}

/**
 * The host name of a Host header value (or a request target's authority) as
 * patterns are compared: lower case, no port, no trailing dot. `undefined` when
 * it cannot be a mapped name (too long, an IPv6 literal, empty): such a request
 * is answered as if no host were mapped. Reads at most {@link MAX_HOST_HEADER}
 * characters, whatever arrives.
 */
export function hostOfHeader(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_HOST_HEADER || value.charCodeAt(0) === 91 /* [ */) return undefined;
  const colon = value.indexOf(':');
  let host = colon === -1 ? value : value.slice(0, colon);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host.length === 0 ? undefined : host.toLowerCase();
}
