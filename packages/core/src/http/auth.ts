/**
 * The optional admin token: when set, every `/api/*` write needs
 * `Authorization: Bearer <token>`. Reads stay open.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { MockpointError } from '../wire/errors.js';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);
const encoder = new TextEncoder();

/**
 * Compares two strings in time that depends only on their lengths, not on where
 * they first differ.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) diff |= (left[i] as number) ^ (right[i % right.length] ?? 0);
  return diff === 0;
}

/** Middleware that refuses `/api/*` writes without the bearer token. */
export function adminToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (!READ_ONLY.has(c.req.method)) {
      const header = c.req.header('authorization') ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match || !constantTimeEqual(match[1] as string, token)) {
        const response = new MockpointError(
          'UNAUTHORIZED',
          header === ''
            ? 'this server requires an admin token for writes: send Authorization: Bearer <MOCKPOINT_ADMIN_TOKEN>'
            : 'the admin token is wrong',
        ).toResponse();
        // RFC 9110 §11.6.1: a 401 carries the challenge it expects.
        response.headers.set('www-authenticate', 'Bearer realm="mockpoint"');
        return response;
      }
    }
    await next();
  };
}
