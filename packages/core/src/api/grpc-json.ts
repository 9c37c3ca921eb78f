/**
 * gRPC as it crosses the wire: an endpoint's protobuf definitions (the `.proto`
 * sources, or a binary `FileDescriptorSet` in base64) and a journal entry's
 * `grpc` mark. See docs/grpc.md.
 *
 * @module
 */
import { z } from 'zod';

/** The definitions `PUT /api/endpoints/{name}/grpc` takes: the sources by path, or a descriptor set. */
export type GrpcDefinitionsInput = { protos: Record<string, string> } | { descriptorSet: string };

/** The definitions as kept and answered: the input, exactly, and the services it declares. */
export type GrpcDefinitions = GrpcDefinitionsInput & {
  /** The full names of the services the definitions declare (`shop.v1.Orders`), in order. */
  services: string[];
};

/** A journal entry's gRPC call (docs/grpc.md#the-journal). */
export interface GrpcMark {
  /** The service's full name: `shop.v1.Orders`. */
  service: string;
  /** The method's name: `GetOrder`. */
  method: string;
  /** The protocol the client spoke: `connect`, `grpc-web` or `grpc`. */
  protocol: 'connect' | 'grpc-web' | 'grpc';
  /** The (first) request message in proto3 JSON, when it was read. */
  message?: unknown;
  /** Every request message in proto3 JSON, in order (bounded: see `messagesDropped`). */
  messages?: unknown[];
  /** Every response message sent, in proto3 JSON, in order (bounded: see `messagesDropped`). */
  responses?: unknown[];
  /** Messages (either way) past the journal's bounds (100 each way, 64 KiB of JSON in all): counted, not kept. */
  messagesDropped?: number;
  /** The status code answered, by name (`ok`, `not_found`, …: Connect's names). */
  code: string;
  /** The status message, when not `ok`. */
  statusMessage?: string;
}

/**
 * The request filter's `grpc` field (docs/grpc.md#finding-calls): gRPC-family
 * calls by service, method and a JSON subset of the request message in proto3
 * JSON. A request that is no call never matches.
 */
export interface GrpcFilter {
  /** The service's full name: `shop.v1.Orders`. */
  service?: string;
  /** The method's name: `GetOrder`. */
  method?: string;
  /** A JSON subset of the request message in proto3 JSON (`{ "id": "7" }`), the rules of a JSON body. */
  message?: unknown;
}

/**
 * The services the daemon answers itself while any name holds definitions:
 * health, then server reflection v1 and v1alpha (docs/grpc.md#health-and-reflection).
 */
export const GRPC_DAEMON_SERVICES: readonly string[] = [
  'grpc.health.v1.Health',
  'grpc.reflection.v1.ServerReflection',
  'grpc.reflection.v1alpha.ServerReflection',
];

/** The gRPC status codes by number, by the names Connect gives them (`not_found`). */
export const GRPC_CODE_NAMES: readonly string[] = [
  'ok',
  'canceled',
  'unknown',
  'invalid_argument',
  'deadline_exceeded',
  'not_found',
  'already_exists',
  'permission_denied',
  'resource_exhausted',
  'failed_precondition',
  'aborted',
  'out_of_range',
  'unimplemented',
  'internal',
  'unavailable',
  'data_loss',
  'unauthenticated',
];

/** A `.proto` path as `protos` keys take it: relative, letters, digits, `_ . - /`. */
export const PROTO_PATH = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*\.proto$/;

export function createGrpcSchemas() {
  const input = z.union([
    z
      .object({
        protos: z
          .record(
            z.string().regex(PROTO_PATH, 'a relative path ending in .proto (letters, digits, _ . - /)'),
            z.string().describe('The file, exactly.'),
          )
          .refine((protos) => Object.keys(protos).length > 0, 'at least one file')
          .describe(
            'The .proto sources by import path ("shop/v1/orders.proto"); they may import each other and the well-known types.',
          ),
      })
      .strict(),
    z
      .object({
        descriptorSet: z
          .string()
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')
          .describe('A binary google.protobuf.FileDescriptorSet (protoc -o, buf build -o) in base64.'),
      })
      .strict(),
  ]);
  const definitions = z.union([
    z.object({ protos: z.record(z.string(), z.string()), services: z.array(z.string()) }),
    z.object({ descriptorSet: z.string(), services: z.array(z.string()) }),
  ]);
  const mark = z
    .object({
      service: z.string(),
      method: z.string(),
      protocol: z.enum(['connect', 'grpc-web', 'grpc']),
      message: z.unknown().optional().describe('The (first) request message in proto3 JSON.'),
      messages: z.array(z.unknown()).optional().describe('Every request message in proto3 JSON, in order.'),
      responses: z.array(z.unknown()).optional().describe('Every response message sent, in proto3 JSON, in order.'),
      messagesDropped: z
        .number()
        .int()
        .optional()
        .describe('Messages past the bounds (100 each way, 64 KiB of JSON in all), counted and not kept.'),
      code: z.string().describe('The status code answered, by name: ok, not_found, …'),
      statusMessage: z.string().optional(),
    })
    .describe('Present when the request was a gRPC, gRPC-Web or Connect call (docs/grpc.md).');
  const filter = z
    .strictObject({
      service: z.string().min(1).max(512).optional().describe("The service's full name: shop.v1.Orders."),
      method: z.string().min(1).max(256).optional().describe("The method's name: GetOrder."),
      message: z
        .unknown()
        .optional()
        .describe('A JSON subset of the request message in proto3 JSON, the rules of a JSON body.'),
    })
    .meta({
      title: 'GrpcFilter',
      description:
        'gRPC, gRPC-Web and Connect calls by service, method and request message (docs/grpc.md). A request that is no call never matches.',
    });
  return { input, definitions, mark, filter };
}
