// Type tests for the handler wrappers. Checked by `pnpm typecheck` (tsc -b includes src).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import { sessionMiddleware, withSession } from './handlers.js';

describe('withSession', () => {
  it('an unannotated (req, res) listener is a node:http one, and fits createServer', () => {
    const listener = withSession((req, res) => {
      expectTypeOf(req).toEqualTypeOf<IncomingMessage>();
      expectTypeOf(res).toEqualTypeOf<ServerResponse>();
    });
    http.createServer(listener);
    http.createServer(withSession((_req, res) => res.end()));
  });

  it('a Fetch-style handler keeps its own type', () => {
    const GET = withSession(async (request: Request, context: { params: Promise<{ id: string }> }) =>
      Response.json({ url: request.url, id: (await context.params).id }),
    );
    expectTypeOf(GET).toEqualTypeOf<
      (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>
    >();
  });

  it('refuses a handler whose first argument has no headers', () => {
    // @ts-expect-error: the first argument must be the request
    withSession((count: number) => count);
  });
});

describe('sessionMiddleware', () => {
  it('is a (req, res, next) middleware', () => {
    expectTypeOf(sessionMiddleware()).parameters.toEqualTypeOf<
      [
        req: { readonly headers: import('./session-header.js').HeadersInput },
        res: unknown,
        next: (error?: unknown) => void,
      ]
    >();
  });
});
