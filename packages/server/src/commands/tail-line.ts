/**
 * One line per request for `mockpoint tail`: time, name, method, subpath,
 * status answered and body size.
 *
 * @module
 */
import type { LiveRequest } from '@mockpoint/core';
import { bodyBytes, subpathOf } from './tail-forward.js';

/** `512 B`, `1.2 kB`, `3.4 MB` (decimal units, as in HTTP tooling). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `HH:MM:SS.mmm` in local time. */
function clock(iso: string): string {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * The line for a request, e.g. `14:03:07.412  hook  POST /orders?x=1  200  1.2 kB`.
 * A status of 0 means a queued fault answered with nothing; a truncated body's size is a lower bound.
 */
export function tailLine(request: LiveRequest): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query)) {
    for (const each of Array.isArray(value) ? value : [value]) query.append(key, each);
  }
  const target = `${subpathOf(request)}${query.size ? `?${query}` : ''}`;
  const status = request.fault ? `${request.statusCode} (${request.fault})` : String(request.statusCode);
  const size = `${request.bodyTruncated ? '>' : ''}${formatSize(bodyBytes(request).length)}`;
  return `${clock(request.receivedAt)}  ${request.name}  ${request.method} ${target}  ${status}  ${size}`;
}
