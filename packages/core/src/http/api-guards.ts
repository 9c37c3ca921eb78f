/**
 * The guards every API request passes, in their order: the host guard, then for `/api/*` the
 * origin guard, the token check and the answer's encoding. One list for a namespace's full app
 * (create-app.ts) and its early answers (namespace-early.ts), so the two cannot drift apart.
 *
 * @module
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { hostGuard } from '../hosts/host-guard.js';
import { type ApiEncoders, apiEncoding } from './api-encoding.js';
import type { ResolvedAppOptions } from './context.js';
import { originGuard } from './origin-guard.js';

/** Adds the API's guards to `app`, `auth` as its token check. */
export function useApiGuards(
  app: Hono,
  options: Pick<ResolvedAppOptions, 'allowedHosts' | 'allowedOrigins'>,
  auth: MiddlewareHandler,
  apiEncoders: ApiEncoders | undefined,
): void {
  app.use('*', hostGuard(options.allowedHosts));
  app.use('/api/*', originGuard(options.allowedOrigins));
  app.use('/api/*', auth);
  app.use('/api/*', apiEncoding({ encoders: apiEncoders }));
}
