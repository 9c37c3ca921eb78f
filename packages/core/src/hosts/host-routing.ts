/**
 * Where a request goes by its host: a mapped host's endpoint (its whole path the
 * subpath), a refusal for a proxied request to a host that is not mocked, or
 * nowhere new (`undefined`: answered as before, by path). One reading for every
 * place a host arrives: the Host header, an absolute-form target (a client using
 * the daemon as its HTTP proxy).
 *
 * @module
 */

import { type EndpointAnswer, errorAnswer } from '../answer/endpoint-answer.js';
import { absoluteTarget, mappedTarget } from '../api/endpoint-target.js';
import { splitHostPort } from '../pattern/host-rules.js';
import { isAllowedHost } from './host-guard.js';
import type { HostTable } from './host-table.js';

/** The error a proxied request to an unmapped host gets: the hosts that are mapped, so the fix is plain. */
export function hostNotMocked(host: string, hosts: HostTable): EndpointAnswer {
  const mapped = hosts.list().map((entry) => entry.host);
  const shown = host.length > 100 ? `${host.slice(0, 100)}…` : host;
  return errorAnswer(
    403,
    'HOST_NOT_MOCKED',
    `"${shown}" is not mapped to an endpoint (${mapped.length === 0 ? 'no host is mapped' : `mapped: ${mapped.slice(0, 20).join(', ')}`}); map it with MOCKPOINT_HOSTS, a mock file's hosts: or PUT /api/endpoints/{name}/hosts`,
    { details: { host: shown, mapped: mapped.slice(0, 100) } },
  );
}

/** Whether `authority` (a port in it, else `defaultPort`) names port `port` (unknown: yes). */
export function samePort(authority: string, defaultPort: number, port: number | undefined): boolean {
  if (port === undefined) return true;
  const given = splitHostPort(authority)?.port;
  return (given === undefined || given === '' ? defaultPort : Number(given)) === port;
}

/** What {@link routeByHost} gives for an unmapped host through the proxy when passing through is on. */
export const PASS_THROUGH: { readonly kind: 'pass-through' } = Object.freeze({ kind: 'pass-through' });

/**
 * The target under `/endpoint/` for a request to `url` with Host `host`, an
 * answer refusing it, or `undefined` (answer it by its path, as without hosts).
 * An absolute-form target names the host itself (the Host header is the
 * client's to set, and a proxy goes by the target): mapped, its endpoint; the
 * daemon's own (an IP address, `localhost`, `allowedHosts`), as before; any
 * other, `HOST_NOT_MOCKED`, or {@link PASS_THROUGH} with `passThrough`
 * (`MOCKPOINT_PROXY_PASS_THROUGH`: the network, as the proxy allow list allows;
 * then the daemon's own address at another port than `passThrough.port`, the
 * one the request came in on, is passed through too).
 */
export function routeByHost(
  url: string,
  host: string | undefined,
  hosts: HostTable,
  allowedHosts: readonly string[],
  passThrough?: { readonly port: number | undefined },
): string | EndpointAnswer | typeof PASS_THROUGH | undefined {
  if (url.charCodeAt(0) !== 47 /* / */ && url !== '*') {
    const authority = absoluteTarget(url).authority ?? '';
    const name = hosts.size === 0 ? undefined : hosts.lookup(authority);
    if (name !== undefined) return mappedTarget(name, url);
    if (authority === '') return undefined;
    const defaultPort = url.startsWith('https:') ? 443 : 80;
    if (isAllowedHost(authority, allowedHosts, defaultPort)) {
      return passThrough !== undefined && !samePort(authority, defaultPort, passThrough.port)
        ? PASS_THROUGH
        : undefined;
    }
    return passThrough !== undefined ? PASS_THROUGH : hostNotMocked(authority, hosts);
  }
  if (hosts.size === 0 || host === undefined) return undefined;
  const name = hosts.lookup(host);
  return name === undefined ? undefined : mappedTarget(name, url);
}
