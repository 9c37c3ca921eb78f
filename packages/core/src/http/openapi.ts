/**
 * The OpenAPI 3.1 document, generated from the route docs that each route module
 * registers next to its handler, using the same zod schemas that validate requests.
 *
 * @module
 */
import { z } from 'zod';
import type { ErrorCode } from '../registry/error-status.js';

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** One documented response. */
export interface ResponseDoc {
  description: string;
  /** JSON body schema (of each event's data, for a stream); omitted for bodiless answers. */
  schema?: z.ZodType;
  /** The media type of the body. @default 'application/json' */
  contentType?: 'application/json' | 'text/event-stream';
  /** The error codes this response may carry (made by `errorResponses` from the registry): `error.code` is one of them. */
  errors?: readonly ErrorCode[];
}

/** A path parameter: a description (any string), or the schema that validates it. */
export type ParamDoc = string | { description: string; schema: z.ZodType };

/** One documented route. Paths use OpenAPI `{param}` syntax. */
export interface RouteDoc {
  method: Method;
  path: string;
  summary: string;
  tag:
    | 'endpoints'
    | 'routes'
    | 'queue'
    | 'collections'
    | 'state'
    | 'sockets'
    | 'journal'
    | 'read'
    | 'service'
    | 'webhooks'
    | 'deliveries'
    | 'hosts'
    | 'graphql'
    | 'grpc'
    | 'namespaces'
    | 'clock';
  /** Path parameters, each a string; with a schema when the route validates it. */
  params?: Record<string, ParamDoc>;
  /** A zod object whose fields are query parameters. */
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Writes need the admin token when one is configured. */
  admin?: boolean;
  /** By status, or by range (`4XX`) for answers whose status is the stored one. */
  responses: Partial<Record<number | `${1 | 2 | 3 | 4 | 5}XX`, ResponseDoc>>;
}

function toSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
}

/** An error body schema whose `error.code` is one of `codes` (the schema as is without them). */
function withCodes(schema: Record<string, unknown>, codes: readonly ErrorCode[] | undefined): Record<string, unknown> {
  if (codes === undefined) return schema;
  const properties = schema.properties as { error: { properties: Record<string, unknown> } };
  const error = properties.error;
  return {
    ...schema,
    properties: {
      ...properties,
      error: { ...error, properties: { ...error.properties, code: { type: 'string', enum: [...codes] } } },
    },
  };
}

/** Builds the OpenAPI 3.1 document for `docs`. */
export function buildOpenApiDocument(docs: RouteDoc[], version: string, adminToken: boolean): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs) {
    const parameters: unknown[] = [];
    for (const [name, param] of Object.entries(doc.params ?? {})) {
      const { description, schema } =
        typeof param === 'string'
          ? { description: param, schema: { type: 'string' } }
          : { description: param.description, schema: toSchema(param.schema, 'input') };
      parameters.push({ name, in: 'path', required: true, description, schema });
    }
    for (const [name, field] of Object.entries(doc.query?.shape ?? {})) {
      const schema = toSchema(field as z.ZodType, 'input');
      parameters.push({ name, in: 'query', required: false, description: schema.description, schema });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(doc.responses) as [string, ResponseDoc][]) {
      responses[status] = response.schema
        ? {
            description: response.description,
            content: {
              [response.contentType ?? 'application/json']: {
                schema: withCodes(toSchema(response.schema, 'output'), response.errors),
              },
            },
          }
        : { description: response.description };
    }
    const operation: Record<string, unknown> = {
      operationId: `${doc.method}${doc.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: doc.summary,
      tags: [doc.tag],
      parameters,
      responses,
    };
    if (doc.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toSchema(doc.body, 'input') } },
      };
    }
    // Every operation states its security: writes take the admin token (only
    // optional while none is configured), reads need nothing.
    operation.security = doc.admin ? (adminToken ? [{ adminToken: [] }] : [{ adminToken: [] }, {}]) : [];
    paths[doc.path] ??= {};
    (paths[doc.path] as Record<string, unknown>)[doc.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'mockpoint',
      version,
      description: 'Self-hosted mock endpoints: store a named JSON answer, read it back at /endpoint/{name}.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This mockpoint server (behind a proxy, the prefix it is served under).' }],
    tags: [
      { name: 'read', description: 'The public endpoint URLs.' },
      { name: 'endpoints', description: 'Create, list, replace and delete endpoints.' },
      { name: 'routes', description: 'Paths, rules, headers and any body below one endpoint: a whole fake API.' },
      { name: 'queue', description: 'One-shot answers and network faults, for retry and failure tests.' },
      { name: 'collections', description: 'Collections of items an endpoint remembers, served by resource routes.' },
      { name: 'state', description: "An endpoint's state machines (scenarios): routes match on them and move them." },
      { name: 'sockets', description: 'WebSocket connections open on this server: list, send, close.' },
      { name: 'journal', description: 'Requests received by each endpoint.' },
      { name: 'webhooks', description: 'Check the signatures of webhooks arriving at an endpoint.' },
      { name: 'deliveries', description: 'Signed webhook deliveries sent to a receiver under test, with retries.' },
      { name: 'hosts', description: 'Hosts that pick an endpoint: any client, unchanged.' },
      {
        name: 'graphql',
        description: "An endpoint's GraphQL schema: schema mode answers GraphQL requests shaped by it.",
      },
      {
        name: 'grpc',
        description:
          "An endpoint's protobuf definitions: its services answer Connect and gRPC-Web calls at /{package.Service}/{Method}.",
      },
      {
        name: 'namespaces',
        description:
          'Namespaces (test sessions): each a whole mockpoint at /ns/{ns}/… (or with the header mockpoint-session: {ns}), with a token of its own.',
      },
      {
        name: 'clock',
        description: "The app's clock: freeze, set or advance what {{now}} and timed state moves read.",
      },
      { name: 'service', description: 'Health and this document.' },
    ],
    paths,
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: adminToken
            ? 'MOCKPOINT_ADMIN_TOKEN is set: every /api write needs Authorization: Bearer <MOCKPOINT_ADMIN_TOKEN>.'
            : 'MOCKPOINT_ADMIN_TOKEN is not set on this server, so writes are open; with it set they need Authorization: Bearer <MOCKPOINT_ADMIN_TOKEN>.',
        },
      },
    },
  };
}
