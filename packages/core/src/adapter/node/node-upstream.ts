/**
 * The Node upstream of proxy routes: `node:http`/`node:https` with a lookup of
 * its own, so the addresses a name resolves to are checked right before the
 * connection is made to one of them (no second resolution a DNS answer could
 * change in between). Redirects are never followed: a 3xx is the answer.
 *
 * @module
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { checkUpstreamHost, type Upstream, type UpstreamRequest } from '../../answer/proxy/upstream.js';
import { checkUpstreamAddress } from '../../answer/proxy/upstream-address.js';
import { nodeBuiltin } from '../../cache/node-builtin.js';
import { headerLines } from '../../codec/raw-headers.js';
import { urlPort } from '../../pattern/host-rules.js';

/** A lookup that refuses a name when any address it resolves to may not be reached. */
export function checkedLookup(port: number, allowHosts: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      try {
        for (const { address } of addresses) checkUpstreamAddress(hostname, address, port, allowHosts);
      } catch (refused) {
        callback(refused as NodeJS.ErrnoException, '', 0);
        return;
      }
      const first = addresses[0] as LookupAddress;
      if ((options as { all?: boolean }).all === true) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      } else callback(null, first.address, first.family);
    });
  };
}

function outgoingHeaders(lines: UpstreamRequest['headers']): OutgoingHttpHeaders {
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of lines) {
    const seen = headers[name];
    headers[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return { ...headers };
}

/** Forwards with `node:http(s)`, checking every address the host resolves to. */
export const nodeUpstream: Upstream = (request) =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url);
    checkUpstreamHost(url, request.allowHosts);
    // node:https (and TLS) loaded by the first HTTPS upstream, not at start.
    const send = url.protocol === 'https:' ? nodeBuiltin('node:https').request : httpRequest;
    const outgoing = send(url, {
      method: request.method,
      headers: outgoingHeaders(request.headers),
      lookup: checkedLookup(urlPort(url), request.allowHosts),
      signal: request.signal,
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      outgoing.off('error', reject);
      const bodiless = request.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304;
      if (bodiless) response.resume();
      resolve({
        status: response.statusCode ?? 502,
        headers: headerLines(response.rawHeaders),
        body: bodiless ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>),
      });
    });
    outgoing.end(request.body ?? undefined);
  });
