// What the daemon loads at start: the whole `graphql` package (validation, execution,
// about 14 MB of heap) only when something needs a schema built, never for a plain start.
// The probe records every bare `graphql` import the process resolves (the parser the
// request filter uses is imported by its own path and is not counted).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  killAll,
  makeTempDir,
  ON_BUN,
  removeTempDirs,
  requestJson,
  startDaemon,
} from './helpers/daemon.js';

const PROBE = fileURLToPath(new URL('./fixtures/sentry-probe.mjs', import.meta.url));

afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

/** Starts a daemon with the probe, asks for health, stops it; the `graphql` imports it resolved. */
async function graphqlImports(args: string[], dir: string): Promise<string[]> {
  return imports(args, dir, '^graphql$');
}

/**
 * Starts a daemon with the probe matching `match`, asks for health, runs `use`,
 * stops it; the matching imports it resolved.
 */
async function imports(
  args: string[],
  dir: string,
  match: string,
  use: (url: string) => Promise<void> = async () => {},
): Promise<string[]> {
  const probeFile = join(dir, 'resolved.txt');
  const daemon = await startDaemon({
    args,
    nodeArgs: ['--import', PROBE],
    env: { MOCKPOINT_TEST_SENTRY_PROBE: probeFile, MOCKPOINT_TEST_PROBE_MATCH: match },
  });
  expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
  await use(daemon.url);
  expect((await daemon.stop()).code).toBe(0);
  return existsSync(probeFile) ? (await readFile(probeFile, 'utf8')).split('\n').filter(Boolean) : [];
}

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the probe is a Node `--import` hook.
describe.skipIf(ON_BUN)('modules the daemon loads', () => {
  beforeAll(() => assertBuilt());

  it('a daemon started without a mock file never loads the graphql package', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    expect(await graphqlImports(['--memory'], dir)).toEqual([]);
  });

  it('a mock file with a GraphQL schema loads it to check the schema (the probe sees it)', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    const file = join(dir, 'mockpoint.yaml');
    await writeFile(file, 'version: 1\nendpoints:\n  - name: gql\n    graphql: "type Query { hello: String }"\n');
    expect(await graphqlImports(['--memory', '--config', file], dir)).toContain('graphql');
  });

  const PROTOBUF = '^(protobufjs|@bufbuild/protobuf|@connectrpc/connect)';

  it('a daemon without protobuf definitions never loads the protobuf libraries, even when called like gRPC', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    const call = async (url: string) => {
      const response = await fetch(`${url}/shop.v1.Orders/GetOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(404);
    };
    expect(await imports(['--memory'], dir, PROTOBUF, call)).toEqual([]);
  });

  it('putting protobuf definitions loads them (the probe sees it)', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    const put = async (url: string) => {
      const body = JSON.stringify({ protos: { 'a.proto': 'syntax = "proto3"; package a; message A {}' } });
      expect((await fetch(`${url}/api/endpoints/a/grpc`, { method: 'PUT', body })).status).toBe(201);
    };
    expect(await imports(['--memory'], dir, PROTOBUF, put)).toContain('protobufjs');
  });
});
