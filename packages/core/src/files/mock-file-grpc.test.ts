// Protobuf definitions in a mock file: sources inline and by $file, a descriptor set by $file
// (its bytes as base64), applied to an app (calls answered), exported and applied again
// unchanged, removed by a file without them; a bad .proto refused on apply with its file, line
// and column.
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { compileProtos } from '../grpc/compile-protos.js';
import { createApp } from '../http/create-app.js';
import type { MockpointError } from '../registry/errors.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const COMMON = 'syntax = "proto3";\npackage shop.v1;\nmessage Money { int64 cents = 1; }\n';
const ORDERS = `syntax = "proto3";\r\npackage shop.v1;\r\nimport "shop/v1/common.proto";\r\nservice Orders { rpc GetOrder(Money) returns (Money); }\r\n`;

const YAML = `version: 1
endpoints:
  - name: shop
    grpc:
      protos:
        shop/v1/common.proto: |
          syntax = "proto3";
          package shop.v1;
          message Money { int64 cents = 1; }
        shop/v1/orders.proto: { $file: ./protos/orders.proto }
  - name: billing
    grpc: { descriptorSet: { $file: ./billing.bin } }
`;

async function billingSet(): Promise<Uint8Array> {
  const registry = await compileProtos({
    'billing.proto':
      'syntax = "proto3";\npackage billing.v1;\nservice Invoices { rpc Get(Ask) returns (Ask); }\nmessage Ask { string id = 1; }\n',
  });
  const file = registry.getFile('billing.proto');
  return toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: file ? [file.proto] : [] }));
}

function target(app: ReturnType<typeof createApp>) {
  return { url: 'http://mockpoint.test', fetch: (request: Request) => Promise.resolve(app.fetch(request)) };
}

describe('grpc in a mock file', () => {
  it('reads sources exactly (inline and $file) and a descriptor set $file as base64', async () => {
    const set = await billingSet();
    const read: string[] = [];
    const file = parseMockFile(YAML, {
      readFile: (path) => {
        read.push(path);
        return path.endsWith('.bin') ? set : ORDERS;
      },
    });
    expect(read).toEqual(['./protos/orders.proto', './billing.bin']);
    expect(file.endpoints[0]?.grpc).toEqual({
      protos: { 'shop/v1/common.proto': COMMON, 'shop/v1/orders.proto': ORDERS },
    });
    expect(file.endpoints[1]?.grpc).toEqual({ descriptorSet: Buffer.from(set).toString('base64') });
  });

  it('refuses a path that is no .proto path, and a grpc that is neither shape', () => {
    const bad = 'version: 1\nendpoints:\n  - name: shop\n    grpc: { protos: { "../x.proto": "" } }\n';
    expect(() => parseMockFile(bad)).toThrow(/mockpoint\.yaml:4:\d+: endpoints\[0\]\.grpc/);
    const neither = 'version: 1\nendpoints:\n  - name: shop\n    grpc: { schema: "x" }\n';
    expect(() => parseMockFile(neither)).toThrow(/endpoints\[0\]\.grpc/);
    // Definitions belong to an endpoint: at the top of the file they would be read and never applied.
    const top = 'version: 1\nendpoints: []\ngrpc: { protos: { "a.proto": "syntax = \\"proto3\\";" } }\n';
    expect(() => parseMockFile(top)).toThrow(/grpc/);
  });

  it('apply serves it; export gives it back; applying the export changes nothing; a file without it removes it', async () => {
    const app = createApp();
    const set = await billingSet();
    const file = parseMockFile(YAML, { readFile: (path) => (path.endsWith('.bin') ? set : ORDERS) });
    expect(await applyMockFile(file, target(app))).toMatchObject({ created: ['shop', 'billing'] });
    const call = await app.request('/shop.v1.Orders/GetOrder', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"cents":"5"}',
    });
    expect(call.status).toBe(200);
    expect(await applyMockFile(file, target(app))).toMatchObject({ unchanged: ['shop', 'billing'] });
    for (const format of ['json', 'yaml'] as const) {
      const exported = await exportMockFile(target(app), { format, names: ['shop', 'billing'] });
      const again = parseMockFile(exported, { file: `mockpoint.${format}` });
      expect(again.endpoints.map((endpoint) => endpoint.grpc)).toEqual(file.endpoints.map((e) => e.grpc));
      expect(await applyMockFile(again, target(app))).toMatchObject({ unchanged: ['shop', 'billing'] });
    }
    const without = 'version: 1\nendpoints:\n  - name: shop\n    data: { ok: true }\n';
    expect(await applyMockFile(parseMockFile(without), target(app))).toMatchObject({ changed: ['shop'] });
    expect((await app.request('/api/endpoints/shop/grpc')).status).toBe(404);
  });

  it('a bad .proto is refused when applied, naming its file, line and column', async () => {
    const app = createApp();
    const bad =
      'version: 1\nendpoints:\n  - name: shop\n    grpc:\n      protos:\n        a.proto: "syntax = \\"proto3\\";\\nmessage A { int32 = 1; }\\n"\n';
    const error = (await applyMockFile(parseMockFile(bad), target(app)).catch((e: unknown) => e)) as MockpointError;
    expect(error.code).toBe('INVALID_PROTO');
    expect(error.message).toContain('a.proto:2:');
  });
});
