// protoWorker(): .proto sources parsed in a real worker thread (the built dist/proto-worker.js,
// as the daemon runs it). Its sets build the same registry as the event loop's; a refusal keeps
// its code and place; a thread that hangs past timeoutMs is ended (GRPC_DEFINITIONS_TOO_COMPLEX)
// and the next job gets a new one; close() refuses what waits (PROTO_WORKER_FAILED); the queue
// is bounded (TOO_MANY_PROTO_COMPILES).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { registryOfDescribed } from '../../grpc/compile-protos.js';
import { inlineProtoCompiler } from '../../grpc/proto-compiler.js';
import { isMockpointError, type MockpointError } from '../../registry/errors.js';
import { protoWorker } from './index.js';

const BUILT = fileURLToPath(new URL('../../../dist/proto-worker.js', import.meta.url));

const FILES = {
  'shop.proto': `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
service Orders { rpc Get(Order) returns (Order); }
message Order { string id = 1; repeated string items = 2; google.protobuf.Timestamp at = 3; }
`,
};

async function refusal(promise: Promise<unknown>): Promise<MockpointError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isMockpointError(error), String(error)).toBe(true);
  return error as MockpointError;
}

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`pnpm build\` first`);
});

describe('protoWorker', () => {
  it('makes the set the event loop makes, and refuses as it does', { timeout: 60_000 }, async () => {
    const worker = protoWorker();
    try {
      const set = await worker.describe(FILES);
      expect(set).toEqual(await inlineProtoCompiler().describe(FILES));
      expect(registryOfDescribed(set, FILES).getService('shop.v1.Orders')?.methods).toHaveLength(1);
      const bad = await refusal(worker.describe({ 'a.proto': 'syntax = "proto3";\nmessage A { string x = 0; }\n' }));
      expect(bad).toMatchObject({ code: 'INVALID_PROTO', details: { file: 'a.proto', line: 2 } });
      const wide = Array.from({ length: 5_000 }, (_, i) => `string f${i} = ${i + 1};`).join(' ');
      const complex = await refusal(worker.describe({ 'w.proto': `syntax = "proto3";\nmessage W { ${wide} }\n` }));
      expect(complex).toMatchObject({ code: 'GRPC_DEFINITIONS_TOO_COMPLEX', details: { widest: 5_000 } });
    } finally {
      await worker.close();
    }
  });

  it('ends a thread that hangs past timeoutMs, then starts another; close() refuses what waits; the queue is bounded', {
    timeout: 60_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-proto-worker-'));
    try {
      const hung = join(dir, 'hung.mjs');
      await writeFile(hung, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n");
      const worker = protoWorker({ url: pathToFileURL(hung), timeoutMs: 300, maxQueued: 2 });
      const first = refusal(worker.describe(FILES));
      const second = refusal(worker.describe(FILES));
      const third = refusal(worker.describe(FILES));
      expect((await refusal(worker.describe(FILES))).code).toBe('TOO_MANY_PROTO_COMPILES');
      // Each times out on its own thread, in turn.
      expect((await first).code).toBe('GRPC_DEFINITIONS_TOO_COMPLEX');
      expect((await second).code).toBe('GRPC_DEFINITIONS_TOO_COMPLEX');
      const closing = worker.close();
      expect((await third).code).toBe('PROTO_WORKER_FAILED');
      await closing;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
