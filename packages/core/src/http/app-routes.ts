/**
 * The routes of the API (`/api/…`, `/endpoint/…` reads), registered on an
 * app in the order they are matched, and the answer to a path none takes.
 *
 * @module
 */
import type { Context, Hono } from 'hono';
import { unknownCallMessage } from '../engine/grpc-calls.js';
import { callProtocolOf, unimplementedCall } from '../engine/grpc-edge.js';
import { MockpointError } from '../registry/errors.js';
import type { AppNamespace } from './auth.js';
import type { AppContext } from './context.js';
import type { NamespaceTable } from './namespace-table.js';
import type { RouteDoc } from './openapi.js';
import { registerAddRoute } from './routes/add.js';
import { registerChaosRoutes } from './routes/chaos.js';
import { registerClockRoutes } from './routes/clock.js';
import { registerCollectionItemRoutes } from './routes/collection-items.js';
import { registerCollectionRoutes } from './routes/collections.js';
import { registerCoverageRoutes } from './routes/coverage.js';
import { registerDeliveryRoutes } from './routes/deliveries.js';
import { registerEndpointRoutes } from './routes/endpoint-routes.js';
import { registerGraphqlRoutes } from './routes/graphql.js';
import { registerGrpcRoutes } from './routes/grpc.js';
import { registerHostRoutes } from './routes/hosts.js';
import { registerJournalRoutes } from './routes/journal.js';
import { registerJournalHarRoutes } from './routes/journal-har.js';
import { registerJournalPactRoutes } from './routes/journal-pact.js';
import { registerJournalStreamRoutes } from './routes/journal-stream.js';
import { registerManageRoutes } from './routes/manage.js';
import { refuseNestedNamespaces, registerNamespaceRoutes } from './routes/namespaces.js';
import { registerQueueRoutes } from './routes/queue.js';
import { registerReadRoutes } from './routes/read.js';
import { registerServiceRoutes } from './routes/service.js';
import { registerSignatureRoutes } from './routes/signature.js';
import { registerSocketRoutes } from './routes/sockets.js';
import { registerStateRoutes } from './routes/state.js';
import { registerTwinRoutes } from './routes/twin.js';
import { registerUnhandledRoutes } from './routes/unhandled.js';
import { registerUnknownNameRoutes } from './routes/unknown-names.js';
import { registerVerifyRoutes } from './routes/verify.js';

/** For each documented path, the methods it answers; matches `{param}` segments. */
function allowedMethods(docs: RouteDoc[]): (path: string) => string[] {
  const byPath = new Map<string, { pattern: RegExp; methods: string[] }>();
  for (const doc of docs) {
    let route = byPath.get(doc.path);
    if (route === undefined) {
      const source = doc.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      route = { pattern: new RegExp(`^${source}$`), methods: [] };
      byPath.set(doc.path, route);
    }
    route.methods.push(doc.method.toUpperCase());
  }
  for (const route of byPath.values()) {
    // Hono answers HEAD wherever it answers GET.
    if (route.methods.includes('GET') && !route.methods.includes('HEAD')) route.methods.push('HEAD');
  }
  return (path) => [...byPath.values()].filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
}

/** Every route of the API, in the order they are matched. */
export function registerRoutes(
  app: Hono,
  ctx: AppContext,
  namespaces: NamespaceTable | undefined,
  namespace: AppNamespace | undefined,
): void {
  registerReadRoutes(app, ctx);
  registerHostRoutes(app, ctx);
  registerAddRoute(app, ctx);
  registerManageRoutes(app, ctx);
  registerEndpointRoutes(app, ctx);
  registerQueueRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerCollectionItemRoutes(app, ctx);
  registerStateRoutes(app, ctx);
  registerClockRoutes(app, ctx);
  registerSocketRoutes(app, ctx);
  registerSignatureRoutes(app, ctx);
  registerChaosRoutes(app, ctx);
  registerTwinRoutes(app, ctx);
  registerGraphqlRoutes(app, ctx);
  registerGrpcRoutes(app, ctx);
  registerJournalRoutes(app, ctx);
  registerJournalStreamRoutes(app, ctx);
  registerJournalHarRoutes(app, ctx);
  registerJournalPactRoutes(app, ctx);
  registerUnknownNameRoutes(app, ctx);
  registerVerifyRoutes(app, ctx);
  registerUnhandledRoutes(app, ctx);
  registerCoverageRoutes(app, ctx);
  if (namespaces !== undefined) registerNamespaceRoutes(app, ctx, namespaces);
  else if (namespace !== undefined) refuseNestedNamespaces(app, namespace.name);
  registerDeliveryRoutes(app, ctx);
  registerServiceRoutes(app, ctx);
}

/**
 * The answer to a path no route takes: a gRPC-family call of a method no
 * definitions declare, `unimplemented` in its form (engine/grpc-edge.ts); else
 * 405 naming the methods a known path allows, else 404.
 */
export function notFoundAnswer(
  ctx: Pick<AppContext, 'docs' | 'endpoints'>,
): (c: Context) => Response | Promise<Response> {
  let allowed: ((path: string) => string[]) | undefined;
  const notFound = (c: Context): Response => {
    allowed ??= allowedMethods(ctx.docs);
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      const response = new MockpointError(
        'METHOD_NOT_ALLOWED',
        `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}`,
      ).toResponse();
      response.headers.set('allow', methods.join(', '));
      return response;
    }
    return new MockpointError(
      'ROUTE_NOT_FOUND',
      `no route for ${c.req.method} ${c.req.path}; see GET /api/openapi.json`,
    ).toResponse();
  };
  return (c) => {
    const { headers } = c.req.raw;
    if (c.req.method !== 'POST' || callProtocolOf(headers) === undefined) return notFound(c);
    return unknownCallMessage(ctx.endpoints, c.req.path).then((message) =>
      message === undefined ? notFound(c) : (unimplementedCall(headers, message) as Response),
    );
  };
}
