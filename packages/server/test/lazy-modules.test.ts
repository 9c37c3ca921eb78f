// What the daemon loads at start: the whole `graphql` package (validation, execution,
// about 14 MB of heap) only when something needs a schema built, never for a plain start.
// The probe records every bare `graphql` import the process resolves (the parser the
// request filter uses is imported by its own path and is not counted). Likewise
// `@hono/node-server` (which makes Node load undici), `ws` and `yaml`: each on first use.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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
  return importsAfter(args, dir, match, async (url) => {
    expect((await requestJson(`${url}/api/health`)).status).toBe(200);
    await use(url);
  });
}

/** Starts a daemon with the probe matching `match`, runs `use`, stops it; the matching imports it resolved. */
async function importsAfter(
  args: string[],
  dir: string,
  match: string,
  use: (url: string) => Promise<void>,
): Promise<string[]> {
  const probeFile = join(dir, 'resolved.txt');
  const daemon = await startDaemon({
    args,
    nodeArgs: ['--import', PROBE],
    env: { MOCKPOINT_TEST_SENTRY_PROBE: probeFile, MOCKPOINT_TEST_PROBE_MATCH: match },
  });
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

  const ON_FIRST_USE = '^(@hono/node-server|ws|yaml)$';

  it('a plain start that answers /endpoint/ loads neither @hono/node-server, ws nor yaml', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    const get = async (url: string) => {
      expect((await fetch(`${url}/endpoint/nothing-here`)).status).toBe(404);
    };
    expect(await importsAfter(['--data-dir', join(dir, 'data')], dir, ON_FIRST_USE, get)).toEqual([]);
  });

  it('the first admin request loads @hono/node-server; a verify with YAML loads yaml; a WebSocket loads ws', async () => {
    const dir = await makeTempDir('mockpoint-lazy-');
    const use = async (url: string) => {
      expect((await requestJson(`${url}/api/health`)).status).toBe(200);
      const openapi = 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n';
      const verify = await fetch(`${url}/api/verify`, { method: 'POST', body: JSON.stringify({ openapi }) });
      expect(verify.status).toBe(200);
      const routes = [{ id: 'ws', match: { method: 'GET', path: '/' }, answer: { websocket: {} } }];
      const put = await fetch(`${url}/api/endpoints/sock/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
      expect(put.status).toBe(200);
      const socket = new WebSocket(`${url.replace('http', 'ws')}/endpoint/sock`);
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.close();
    };
    expect((await importsAfter(['--memory'], dir, ON_FIRST_USE, use)).sort()).toEqual([
      '@hono/node-server',
      'ws',
      'yaml',
    ]);
  });
});

describe('the built modules', () => {
  // V8 keeps each module's source; one character past Latin-1 makes all of it two bytes a character.
  it('are ASCII, so their sources are one-byte strings in V8', async () => {
    const dist = ['../dist', '../../core/dist'].map((d) => fileURLToPath(new URL(d, import.meta.url)));
    for (const dir of dist) {
      for (const file of (await readdir(dir)).filter((f) => f.endsWith('.js'))) {
        const text = await readFile(join(dir, file), 'utf8');
        expect(/[\u0080-\uffff]/.test(text), `${file} has a non-ASCII character`).toBe(false);
      }
    }
  });
});
