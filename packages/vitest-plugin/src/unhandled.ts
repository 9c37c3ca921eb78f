/**
 * `onUnhandledRequest`: what a test's session says about the requests in it
 * that no endpoint or route answered.
 *
 * @module
 */
import type { UnhandledRequest } from './namespaces.js';
import type { OnUnhandledRequest } from './provided.js';

/** The requests shown one by one; more are counted. */
const SHOWN = 20;

/**
 * One paragraph naming each request (method, endpoint name, subpath, the status
 * it got) and the daemon's message about it (what was missing, the nearest miss).
 * @example
 * mockpoint: 1 request in this test's session reached no endpoint or route (onUnhandledRequest: 'error'):
 *   1. GET users /users/7 → 404: no route of "users" matched GET /users/7; nearest: GET /users/:id (…)
 */
export function describeUnhandled(requests: readonly UnhandledRequest[], mode: OnUnhandledRequest): string {
  const count = `${requests.length} request${requests.length === 1 ? '' : 's'}`;
  const lines = requests.slice(0, SHOWN).map((request, index) => {
    const subpath = request.subpath === '' ? '/' : request.subpath;
    return `  ${index + 1}. ${request.method} ${request.name} ${subpath} → ${request.statusCode}: ${request.message}`;
  });
  if (requests.length > SHOWN) lines.push(`  … and ${requests.length - SHOWN} more`);
  return [
    `${count} in this test's session reached no endpoint or route (onUnhandledRequest: '${mode}'):`,
    ...lines,
  ].join('\n');
}
