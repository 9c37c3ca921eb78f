/**
 * `/api/endpoints/{name}/grpc`: the endpoint's protobuf definitions. PUT sets
 * them (`.proto` sources by path, or a binary descriptor set in base64),
 * checked by compiling them (`400 INVALID_PROTO` with file, line and column);
 * a service another name holds is `409 SERVICE_TAKEN`. GET answers them
 * exactly, with the services they declare; DELETE removes them. Kept beside
 * the record, like the GraphQL schema. See docs/grpc.md.
 *
 * @module
 */
import type { Hono } from 'hono';
import { createGrpcSchemas } from '../../api/grpc-json.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { methodsTakingStream, refuseStreamsSigned } from '../../engine/grpc-signature-rule.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import type { AppContext } from '../context.js';
import { DEFINITION_REFUSALS, registerDefinitions } from './definitions.js';
import { pathName } from './manage.js';
import { errorResponses, readDoc } from './responses.js';

const grpcSchemas = onFirstUse(createGrpcSchemas);

export function registerGrpcRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'options' | 'schemas'>,
): void {
  const { schemas, endpoints, options } = ctx;
  const { params, deleteDoc } = registerDefinitions(app, ctx, {
    segment: 'grpc',
    what: 'protobuf definitions',
    it: 'them',
    read: (name) => endpoints.grpcDefinitions(name),
    send: (c, text) => c.body(text, 200, { 'content-type': 'application/json; charset=utf-8' }),
    clear: (name) => endpoints.setGrpc(name, undefined),
  });

  app.put('/api/endpoints/:name/grpc', async (c) => {
    const name = pathName(c.req.param('name'));
    // Its input, read and checked by its declaration (settings/grpc-setting.ts); compiled in the proto worker.
    const input = await NAME_SETTINGS.grpc.input.read(c.req.raw, options, schemas);
    const { checkDefinitions } = await import('../../grpc/definitions.js');
    const checked = await checkDefinitions(input, options[NAME_SETTINGS.grpc.limit.option], endpoints.grpc.compiler);
    await refuseStreamsSigned(endpoints, name, methodsTakingStream(checked.registry));
    const had = await endpoints.setGrpc(name, { text: checked.text, services: checked.definitions.services });
    return c.body(checked.text, had ? 200 : 201, { 'content-type': 'application/json; charset=utf-8' });
  });

  const refused = DEFINITION_REFUSALS;
  const saved = {
    description: 'The definitions as put, exactly, with the full names of the services they declare.',
    schema: grpcSchemas().definitions,
  };
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/grpc',
        summary: "The endpoint's protobuf definitions, exactly as they were put, and the services they declare.",
        tag: 'grpc',
        params,
      },
      saved,
      'NOT_FOUND',
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/grpc',
      summary:
        'Put the protobuf definitions whose services this endpoint answers at /{package.Service}/{Method} (Connect and gRPC-Web; schema mode: a deterministic message of each unary method\'s output type). The body is { "protos": { "path.proto": "…" } } (files that may import each other and the well-known types) or { "descriptorSet": "…base64…" }. A service belongs to one endpoint.',
      tag: 'grpc',
      params,
      body: grpcSchemas().input,
      admin: true,
      responses: {
        200: { ...saved, description: 'Replaced.' },
        201: { ...saved, description: 'Created.' },
        ...errorResponses(
          schemas,
          ...refused,
          'INVALID_JSON',
          'INVALID_UTF8',
          'INVALID_BODY',
          'INVALID_PROTO',
          'GRPC_DEFINITIONS_TOO_COMPLEX',
          'GRPC_DEFINITIONS_TOO_LARGE',
          'SETTING_NOT_FOR_KIND',
          'TOO_MANY_PROTO_COMPILES',
          'PROTO_WORKER_FAILED',
          'SERVICE_TAKEN',
        ),
      },
    },
    deleteDoc,
  );
}
