/**
 * The per-name setting `grpc`: the protobuf definitions, kept as the JSON text the route made (the
 * sources or a descriptor set; docs/grpc.md). A PUT's body is checked here; the route compiles it in
 * the proto worker (`http/routes/grpc.ts`), bounded by `MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES`.
 *
 * @module
 */
import { z } from 'zod';
import { createGrpcSchemas, type GrpcDefinitions, type GrpcDefinitionsInput, PROTO_PATH } from '../api/grpc-json.js';
import { onFirstUse } from '../cache/on-first-use.js';
import { decodeUtf8, parseJsonBody, readDecodedBody } from '../codec/body.js';
import { MockpointError } from '../registry/errors.js';
import type { NameSetting } from './setting-declaration.js';

const grpcSchemas = onFirstUse(createGrpcSchemas);

/** The definitions of a PUT body's text; `400 INVALID_BODY` naming where it is not. */
function definitionsInput(text: string): GrpcDefinitionsInput {
  const body = parseJsonBody(
    text,
    'send { "protos": { "path.proto": "…source…" } } or { "descriptorSet": "…base64…" }',
  );
  const parsed = grpcSchemas().input.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new MockpointError(
      'INVALID_BODY',
      `the body must be { "protos": { "path.proto": "…source…", … } } or { "descriptorSet": "…base64…" }${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/** A source or the set's bytes: the text, or a file beside the mock file. */
const textOrFile = () => z.union([z.string(), z.strictObject({ $file: z.string() })]);

export const grpcSetting: NameSetting<string, GrpcDefinitionsInput> = {
  key: 'grpc',
  label: 'protobuf definitions',
  encode: (text) => text,
  decode: (text) => text,
  limit: { option: 'maxGrpcDefinitionsBytes', code: 'GRPC_DEFINITIONS_TOO_LARGE' },
  input: {
    schema: () => grpcSchemas().input,
    read: async (request, limits) => definitionsInput(decodeUtf8(await readDecodedBody(request, limits.maxBodyBytes))),
  },
  file: {
    member: () =>
      z
        .union([
          z.strictObject({
            protos: z
              .record(
                z.string().regex(PROTO_PATH, 'a relative path ending in .proto (letters, digits, _ . - /)'),
                textOrFile(),
              )
              .refine((protos) => Object.keys(protos).length > 0, 'at least one file'),
          }),
          z.strictObject({ descriptorSet: textOrFile() }),
        ])
        .optional()
        .describe(
          'Protobuf definitions (docs/grpc.md): { protos: { "shop/v1/orders.proto": source or { "$file": "./orders.proto" } } } or { descriptorSet: base64 or { "$file": "./set.bin" } }; their services are answered at /{package.Service}/{Method}.',
        ),
    // Its shape here (the member's schema); the daemon compiles it when it is applied.
    check: (value) => value as GrpcDefinitionsInput,
    read: async (get) => {
      const text = await get('grpc');
      if (text === undefined) return undefined;
      const { services: _services, ...input } = JSON.parse(text) as GrpcDefinitions;
      return input;
    },
    body: (input) => JSON.stringify(input),
    entry: (input) => input,
    clear: { unknown: true, olderOk: true },
  },
};
