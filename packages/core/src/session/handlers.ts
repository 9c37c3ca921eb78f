/**
 * Running an app server's request handlers in the session their request
 * names: `withSession` for a `node:http` request listener or a Fetch-style
 * handler (Next.js route handlers), `sessionMiddleware` for Express and
 * Connect, `fastifySession` for Fastify. None imports its framework: each
 * takes the request as the framework hands it.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runWithSession } from './session-context.js';
import { type HeadersInput, sessionOf } from './session-header.js';

/** A request as a handler gets it: a Node `IncomingMessage`, a Fetch `Request`, Express's, Fastify's, … */
export interface RequestWithHeaders {
  readonly headers: HeadersInput;
}

/**
 * Wraps a handler whose first argument is the request (`(req, res) => …` for
 * `node:http`, `(request: Request, context) => Response` for a Next.js route
 * handler or any Fetch-style server) so that it runs in the session the
 * request names (`sessionOf(request.headers)`), or in none. The wrapper has the
 * handler's own type; an unannotated `(req, res) => …` is a `node:http` listener.
 */
export function withSession(
  listener: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void;
export function withSession<A extends readonly [RequestWithHeaders, ...unknown[]], R>(
  handler: (...args: A) => R,
): (...args: A) => R;
export function withSession<A extends readonly [RequestWithHeaders, ...unknown[]], R>(
  handler: (...args: A) => R,
): (...args: A) => R {
  return (...args: A) => runWithSession(sessionOf(args[0].headers), () => handler(...args));
}

/**
 * Express/Connect middleware: the rest of the chain runs in the session the
 * request names. Put it first (`app.use(sessionMiddleware())`).
 */
export function sessionMiddleware(): (req: RequestWithHeaders, res: unknown, next: (error?: unknown) => void) => void {
  return (req, _res, next) => runWithSession(sessionOf(req.headers), () => next());
}

/** The part of a Fastify instance {@link fastifySession} uses. */
export interface FastifyHooks {
  addHook(
    name: 'onRequest',
    hook: (request: RequestWithHeaders, reply: unknown, done: (error?: Error) => void) => void,
  ): unknown;
}

/**
 * A Fastify plugin (`await app.register(fastifySession)`): every route's hooks
 * and handler run in the session the request names (an `onRequest` hook;
 * Fastify keeps the context through body parsing). Not encapsulated
 * (Fastify's `skip-override`), so it covers the whole app, routes of other
 * plugins included.
 */
export const fastifySession = Object.assign(
  (fastify: FastifyHooks, _options: unknown, done: (error?: Error) => void): void => {
    const hook = (request: RequestWithHeaders, _reply: unknown, next: (error?: Error) => void) =>
      runWithSession(sessionOf(request.headers), () => next());
    fastify.addHook('onRequest', hook);
    done();
  },
  { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'mockpoint-session' },
);
